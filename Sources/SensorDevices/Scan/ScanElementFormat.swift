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

/// How one channel's value is stored in a buffered scan: the kernel's `scan_elements/*_type`
/// text, `[be|le]:[s|u]bits/storagebits[Xrepeat]>>shift`.
///
/// `le:s12/16>>4` is a signed 12-bit value in a little-endian 16-bit slot, shifted left by 4.
/// The bits outside `bits` (below the shift and above the value) are never trusted: drivers
/// leave unrelated bytes there (`le:s16/32>>0` on some devices).
public struct ScanElementFormat: Sendable, Hashable, CustomStringConvertible {
    /// Whether the slot is big-endian (`be`) rather than little-endian (`le`).
    public let isBigEndian: Bool
    /// Whether the value is two's complement (`s`, `S`) rather than unsigned (`u`, `U`).
    public let isSigned: Bool
    /// The number of bits that hold the value, 1 through `storageBits`.
    public let bits: Int
    /// The size of the slot in bits: 8, 16, 32 or 64.
    public let storageBits: Int
    /// How far the value is shifted left within the slot.
    public let shift: Int
    /// How many slots of this format follow each other (the `X` part; 1 when absent).
    public let repeatCount: Int

    /// The largest repeat count accepted: the kernel stores it in 8 bits.
    public static let maximumRepeatCount = 255

    /// A format from its parts, as libiio's `struct iio_data_format` gives them.
    /// - Parameters:
    ///   - storageBits: the slot size in bits (libiio's `length`).
    ///   - repeatCount: the number of consecutive slots (libiio's `repeat`).
    /// - Throws: ``ScanElementFormatError`` quoting the parts in the kernel's spelling when they
    ///   cannot describe a value.
    public init(
        isBigEndian: Bool,
        isSigned: Bool,
        bits: Int,
        storageBits: Int,
        shift: Int,
        repeatCount: Int = 1
    ) throws(ScanElementFormatError) {
        let text = Self.spell(
            isBigEndian: isBigEndian,
            isSigned: isSigned,
            bits: bits,
            storageBits: storageBits,
            shift: shift,
            repeatCount: repeatCount
        )
        if let reason = Self.check(bits: bits, storageBits: storageBits, shift: shift, repeatCount: repeatCount) {
            throw ScanElementFormatError(text: text, reason: reason)
        }
        self.isBigEndian = isBigEndian
        self.isSigned = isSigned
        self.bits = bits
        self.storageBits = storageBits
        self.shift = shift
        self.repeatCount = repeatCount
    }

    /// Parses the kernel's scan element type text, such as `le:s12/16>>4` or `le:s16/16X2>>0`.
    ///
    /// Accepts libiio's upper-case sign letters (`S`, `U`) and ignores whitespace around the
    /// text (sysfs ends it with a newline).
    /// - Throws: ``ScanElementFormatError`` quoting the text and saying what is wrong.
    public init(parsing text: some StringProtocol) throws(ScanElementFormatError) {
        let text = String(text)
        var scanner = FormatScanner(text)
        do throws(ScanElementFormatError.Reason) {
            let isBigEndian = try scanner.endianness()
            try scanner.expect(":", for: .colon)
            let isSigned = try scanner.sign()
            let bits = try scanner.number(for: .bits)
            try scanner.expect("/", for: .slash)
            let storageBits = try scanner.number(for: .storageBits)
            var repeatCount = 1
            if scanner.skip("X") { repeatCount = try scanner.number(for: .repeatCount) }
            try scanner.expect(">>", for: .shiftOperator)
            let shift = try scanner.number(for: .shift)
            try scanner.end()
            if let reason = Self.check(bits: bits, storageBits: storageBits, shift: shift, repeatCount: repeatCount) {
                throw reason
            }
            self.isBigEndian = isBigEndian
            self.isSigned = isSigned
            self.bits = bits
            self.storageBits = storageBits
            self.shift = shift
            self.repeatCount = repeatCount
        } catch {
            throw ScanElementFormatError(text: text, reason: error)
        }
    }

    /// The number of bytes of one slot.
    @inlinable
    public var storageBytes: Int { storageBits &>> 3 }

    /// The kernel's spelling, such as `le:s12/16>>4` (with `X` only for a repeat count above 1).
    public var description: String {
        Self.spell(
            isBigEndian: isBigEndian,
            isSigned: isSigned,
            bits: bits,
            storageBits: storageBits,
            shift: shift,
            repeatCount: repeatCount
        )
    }

    /// Decodes the value in the slot at `bytes` (the first slot of a repeat).
    ///
    /// Reads ``storageBytes`` bytes at any alignment, shifts right by ``shift``, keeps the low
    /// ``bits`` bits and sign-extends them when signed. An unsigned 64-bit value above
    /// `Int64.max` comes back with the same bit pattern, so negative.
    /// - Parameter bytes: at least ``storageBytes`` readable bytes.
    @inlinable
    public func decode(_ bytes: UnsafeRawPointer) -> Int64 {
        let slot: UInt64
        switch storageBits {
        case 8:
            slot = UInt64(bytes.load(as: UInt8.self))
        case 16:
            let raw = bytes.loadUnaligned(as: UInt16.self)
            slot = UInt64(isBigEndian ? UInt16(bigEndian: raw) : UInt16(littleEndian: raw))
        case 32:
            let raw = bytes.loadUnaligned(as: UInt32.self)
            slot = UInt64(isBigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw))
        default:
            let raw = bytes.loadUnaligned(as: UInt64.self)
            slot = isBigEndian ? UInt64(bigEndian: raw) : UInt64(littleEndian: raw)
        }
        // Move the value's top bit to bit 63, then back down: an arithmetic shift sign-extends,
        // a logical one clears the bits above the value. `bits` is 1...64, so both shifts are < 64.
        let unusedBits = UInt64(64 &- bits)
        let top = (slot &>> UInt64(shift)) &<< unusedBits
        return isSigned ? Int64(bitPattern: top) &>> unusedBits : Int64(bitPattern: top &>> unusedBits)
    }

    /// What is wrong with these parts, or nil when they describe a value.
    private static func check(
        bits: Int,
        storageBits: Int,
        shift: Int,
        repeatCount: Int
    ) -> ScanElementFormatError.Reason? {
        guard [8, 16, 32, 64].contains(storageBits) else { return .unsupportedStorageBits(storageBits) }
        guard bits >= 1, bits <= storageBits else { return .invalidBits(bits) }
        guard shift >= 0, shift <= storageBits - bits else { return .invalidShift(shift) }
        guard repeatCount >= 1, repeatCount <= maximumRepeatCount else { return .invalidRepeatCount(repeatCount) }
        return nil
    }

    private static func spell(
        isBigEndian: Bool,
        isSigned: Bool,
        bits: Int,
        storageBits: Int,
        shift: Int,
        repeatCount: Int
    ) -> String {
        let repeatText = repeatCount == 1 ? "" : "X\(repeatCount)"
        return "\(isBigEndian ? "be" : "le"):\(isSigned ? "s" : "u")\(bits)/\(storageBits)\(repeatText)>>\(shift)"
    }
}

/// Reads the parts of a scan element type text from left to right.
private struct FormatScanner {
    typealias Reason = ScanElementFormatError.Reason

    private let bytes: [UInt8]
    private var position = 0

    init(_ text: String) {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || (0x09...0x0D).contains($0) }
        var bytes = Array(text.utf8)
        while let last = bytes.last, isSpace(last) { bytes.removeLast() }
        self.bytes = Array(bytes.drop(while: isSpace))
    }

    private var rest: String { String(decoding: bytes[position...], as: UTF8.self) }

    mutating func endianness() throws(Reason) -> Bool {
        if skip("be") { return true }
        if skip("le") { return false }
        guard position < bytes.count else { throw .missing(.endianness) }
        throw .unknownEndianness(String(rest.prefix { $0 != ":" }))
    }

    mutating func sign() throws(Reason) -> Bool {
        guard position < bytes.count else { throw .missing(.sign) }
        switch bytes[position] {
        case UInt8(ascii: "s"), UInt8(ascii: "S"):
            position += 1
            return true
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            position += 1
            return false
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            throw .missing(.sign)
        default:
            let found = rest.prefix { !$0.isNumber && $0 != "/" }
            throw found.isEmpty ? .missing(.sign) : .unknownSign(String(found))
        }
    }

    /// A decimal number of at most 9 digits: anything longer is no valid value of any part.
    mutating func number(for part: ScanElementFormatError.Part) throws(Reason) -> Int {
        let start = position
        var value = 0
        while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) {
            guard position - start < 9 else { throw .numberTooLarge(part) }
            value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
            position += 1
        }
        guard position > start else { throw .missing(part) }
        return value
    }

    mutating func expect(_ literal: String, for part: ScanElementFormatError.Part) throws(Reason) {
        guard skip(literal) else { throw .missing(part) }
    }

    /// Skips `literal` if the text continues with it.
    mutating func skip(_ literal: String) -> Bool {
        let literalBytes = Array(literal.utf8)
        guard bytes[position...].starts(with: literalBytes) else { return false }
        position += literalBytes.count
        return true
    }

    func end() throws(Reason) {
        guard position == bytes.count else { throw .trailingCharacters(rest) }
    }
}

/// A scan element type that does not describe a value.
public struct ScanElementFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A part of the scan element type text.
    public enum Part: String, Sendable, Hashable {
        /// `be` or `le`.
        case endianness
        /// The `:` after the endianness.
        case colon = "':'"
        /// `s` or `u`.
        case sign
        /// The number of value bits.
        case bits
        /// The `/` before the storage bits.
        case slash = "'/'"
        /// The slot size in bits.
        case storageBits = "storage bits"
        /// The number after `X`.
        case repeatCount = "repeat count"
        /// The `>>` before the shift.
        case shiftOperator = "'>>'"
        /// The shift in bits.
        case shift
    }

    /// What is wrong with the text.
    public enum Reason: Error, Sendable, Hashable {
        /// Neither `be` nor `le`; carries what was found instead.
        case unknownEndianness(String)
        /// Neither `s` nor `u` (in either case); carries what was found instead.
        case unknownSign(String)
        /// The text ends, or has something else, where this part belongs.
        case missing(ScanElementFormatError.Part)
        /// A number too large to be any valid value of this part.
        case numberTooLarge(ScanElementFormatError.Part)
        /// Storage bits other than 8, 16, 32 or 64.
        case unsupportedStorageBits(Int)
        /// Bits of 0 (or less) or more than the storage bits.
        case invalidBits(Int)
        /// A negative shift, or one that pushes the value past the top of its slot.
        case invalidShift(Int)
        /// A repeat count below 1 or above ``ScanElementFormat/maximumRepeatCount``.
        case invalidRepeatCount(Int)
        /// Characters after the shift; carries them.
        case trailingCharacters(String)
    }

    /// The text that was parsed, or the kernel spelling of the parts that were given.
    public var text: String
    /// What is wrong with it.
    public var reason: Reason

    /// An error for this text and reason.
    public init(text: String, reason: Reason) {
        self.text = text
        self.reason = reason
    }

    /// The text in quotes and what is wrong with it.
    public var description: String {
        "scan element type '\(text)': \(explanation)"
    }

    private var explanation: String {
        switch reason {
        case .unknownEndianness(let found):
            "unknown endianness '\(found)' (expected 'be' or 'le')"
        case .unknownSign(let found):
            "unknown sign '\(found)' (expected 's' or 'u')"
        case .missing(let part):
            "missing the \(part.rawValue)"
        case .numberTooLarge(let part):
            "the \(part.rawValue) is too large"
        case .unsupportedStorageBits(let storageBits):
            "storage bits \(storageBits) is not 8, 16, 32 or 64"
        case .invalidBits(let bits):
            "bits \(bits) is not between 1 and the storage bits"
        case .invalidShift(let shift):
            "shift \(shift) is negative or moves the value past the top of its storage bits"
        case .invalidRepeatCount(let count):
            "repeat count \(count) is not between 1 and \(ScanElementFormat.maximumRepeatCount)"
        case .trailingCharacters(let rest):
            "unexpected '\(rest)' after the shift"
        }
    }
}
