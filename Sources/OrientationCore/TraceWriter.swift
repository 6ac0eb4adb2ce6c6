//===----------------------------------------------------------------------===//
//
// This source file is part of the orientd open source project
//
// Copyright (c) 2026 the orientd project authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

/// Writes the trace format of CLASSIFIER.md, the one ``TraceReader`` reads.
///
/// ```
/// # orientd-trace 1
/// # rate_hz=25
/// t,x,y,z
/// 0.000000,0.1200,-9.7900,0.3000
/// ```
/// t is in seconds from the start time (by default the first sample's time) with 6 decimals;
/// x, y and z have 4. Numbers are rounded correctly from the exact value of the double, ties
/// away from zero, and written in plain decimal notation whatever their size. A value that
/// rounds to zero is written without a sign (`0.0000`, never `-0.0000`). A trace must always
/// parse, so the writer takes finite values only: a non-finite sample is a programming error.
///
/// A two-sensor trace (``withBase``) has the header `t,x,y,z,bx,by,bz` and seven fields a line: the display's
/// reading or the base's, the other left empty (`0.040000,,,,0.1000,0.2000,9.8000`).
public struct TraceWriter: Sendable {
    /// The number of decimals of t.
    public static let timeDecimals = 6
    /// The number of decimals of x, y and z.
    public static let accelerationDecimals = 4

    /// The sample rate written in the header, if known.
    public let rateHz: Double?
    /// The time that t counts from; nil until the first sample when none was given.
    public private(set) var startTime: Double?
    /// Whether the trace has the base accelerometer's columns too.
    public let withBase: Bool

    /// A writer for a trace at `rateHz` (if known) whose t counts from `startTime` (by default
    /// the time of the first sample written).
    /// - Precondition: `rateHz` is finite and positive and `startTime` finite, when given.
    public init(rateHz: Double? = nil, startTime: Double? = nil, withBase: Bool = false) {
        if let rateHz { precondition(rateHz.isFinite && rateHz > 0, "a trace's rate must be finite and positive") }
        if let startTime { precondition(startTime.isFinite, "a trace's start time must be finite") }
        self.rateHz = rateHz
        self.startTime = startTime
        self.withBase = withBase
    }

    /// The header lines, without newlines: version, rate (when known) and column names.
    public var headerLines: [String] {
        var lines = ["# orientd-trace \(TraceReader.version)"]
        if let rateHz {
            let isWhole = rateHz == rateHz.rounded() && rateHz < 0x1p53
            lines.append("# rate_hz=\(isWhole ? String(Int64(rateHz)) : String(describing: rateHz))")
        }
        lines.append(withBase ? "t,x,y,z,bx,by,bz" : "t,x,y,z")
        return lines
    }

    /// The data line for `sample`, without a newline, such as `0.040000,0.1100,-9.8000,0.2900`.
    /// - Precondition: the sample's time and acceleration are finite.
    public mutating func line(for sample: Sample) -> String {
        withBase ? fields(for: sample) + ",,," : fields(for: sample)
    }

    /// The data line for a sample of the base accelerometer in a two-sensor trace, without a newline, such as
    /// `0.040000,,,,0.1000,0.2000,9.8000`.
    /// - Precondition: ``withBase``; the sample's time and acceleration are finite.
    public mutating func baseLine(for sample: Sample) -> String {
        precondition(withBase, "a one-sensor trace has no base columns")
        let fields = fields(for: sample)
        let time = fields.prefix { $0 != "," }
        return time + ",,," + fields.dropFirst(time.count)
    }

    /// t, x, y and z of a sample, separated by commas.
    private mutating func fields(for sample: Sample) -> String {
        precondition(sample.time.isFinite && sample.acceleration.isFinite, "a trace holds finite samples only")
        let start = startTime ?? sample.time
        startTime = start
        let time = sample.time - start
        precondition(time.isFinite, "a sample's time from the start of the trace must be finite")
        let acceleration = sample.acceleration
        return [
            Self.decimalText(time, decimals: Self.timeDecimals),
            Self.decimalText(acceleration.x, decimals: Self.accelerationDecimals),
            Self.decimalText(acceleration.y, decimals: Self.accelerationDecimals),
            Self.decimalText(acceleration.z, decimals: Self.accelerationDecimals),
        ].joined(separator: ",")
    }

    /// `value` in plain decimal notation with exactly `decimals` decimals, rounded correctly
    /// (from the double's exact value, ties away from zero), such as `-9.7900`.
    ///
    /// A value that rounds to zero has no sign. Large values are written in full
    /// (`1000000.0000`), never in exponent notation.
    /// - Precondition: `value` is finite and `decimals` is 0 through 18.
    public static func decimalText(_ value: Double, decimals: Int) -> String {
        precondition(value.isFinite, "only finite values have a decimal text")
        precondition((0...18).contains(decimals), "decimals must be 0 through 18")
        var digits = Array(integerDigits(ofMagnitudeOf: value, timesTenToThe: decimals).utf8)
        let isZero = digits.allSatisfy { $0 == UInt8(ascii: "0") }
        if digits.count <= decimals {
            digits.insert(contentsOf: repeatElement(UInt8(ascii: "0"), count: decimals + 1 - digits.count), at: 0)
        }
        if decimals > 0 { digits.insert(UInt8(ascii: "."), at: digits.count - decimals) }
        if value.sign == .minus && !isZero { digits.insert(UInt8(ascii: "-"), at: 0) }
        return String(decoding: digits, as: UTF8.self)
    }

    /// The decimal digits of `|value| × 10^decimals` rounded to an integer, ties away from zero.
    private static func integerDigits(ofMagnitudeOf value: Double, timesTenToThe decimals: Int) -> String {
        let magnitude = value.magnitude
        guard magnitude != 0 else { return "0" }
        // magnitude = significand × 2^exponent exactly, so magnitude × 10^decimals =
        // (significand × 5^decimals) × 2^(exponent + decimals), with a product below 2^(53+42).
        let significand: UInt64
        let exponent: Int
        if magnitude.isNormal {
            significand = magnitude.significandBitPattern | (1 << 52)
            exponent = Int(magnitude.exponentBitPattern) - 1075
        } else {
            significand = magnitude.significandBitPattern
            exponent = -1074
        }
        var fivePower: UInt128 = 1
        for _ in 0..<decimals { fivePower *= 5 }
        let scaled = UInt128(significand) * fivePower
        let binaryExponent = exponent + decimals

        if binaryExponent >= 0 {
            if binaryExponent < scaled.leadingZeroBitCount { return String(scaled << binaryExponent) }
            return digits(of: scaled, timesTwoToThe: binaryExponent)
        }
        let dropped = -binaryExponent
        // Below 2^95, `scaled` is less than half of 2^dropped for any larger shift: it rounds to 0.
        guard dropped <= 100 else { return "0" }
        let quotient = scaled >> dropped
        let remainder = scaled - (quotient << dropped)
        let half = UInt128(1) << (dropped - 1)
        return String(remainder >= half ? quotient + 1 : quotient)
    }

    /// The decimal digits of `value × 2^exponent`, for products too large for `UInt128`.
    private static func digits(of value: UInt128, timesTwoToThe exponent: Int) -> String {
        // Base 10^9 limbs, least significant first; each limb × 2^30 plus a carry fits in UInt64.
        let base: UInt64 = 1_000_000_000
        var limbs: [UInt64] = []
        var rest = value
        while rest > 0 {
            limbs.append(UInt64(rest % UInt128(base)))
            rest /= UInt128(base)
        }
        var remaining = exponent
        while remaining > 0 {
            let step = min(remaining, 30)
            remaining -= step
            var carry: UInt64 = 0
            for index in limbs.indices {
                let product = (limbs[index] << step) + carry
                limbs[index] = product % base
                carry = product / base
            }
            while carry > 0 {
                limbs.append(carry % base)
                carry /= base
            }
        }
        var text = String(limbs.last ?? 0)
        for limb in limbs.dropLast().reversed() {
            let limbText = String(limb)
            text += String(repeating: "0", count: 9 - limbText.count) + limbText
        }
        return text
    }
}
