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

/// Reads the trace format of CLASSIFIER.md one line at a time.
///
/// ```
/// # orientd-trace 1
/// # rate_hz=25
/// t,x,y,z
/// 0.000000,0.1200,-9.7900,0.3000
/// ```
/// Lines starting with `#` are comments (the version and rate lines are read from them); the
/// `t,x,y,z` header may come before the data; blank lines are skipped. A malformed line is an
/// error that names its line number.
public struct TraceReader: Sendable {
    /// The trace format version this reader understands.
    public static let version = 1

    /// The number of the last line read, counting from 1.
    public private(set) var lineNumber = 0
    /// The rate from a `# rate_hz=` comment, if the trace has one.
    public private(set) var rateHz: Double?
    private var sawData = false

    /// A reader at the start of a trace.
    public init() {}

    /// Reads the next line (without its newline).
    /// - Returns: the display's sample on the line, or nil for a comment, header or blank line, or a line with
    ///   only a base reading.
    /// - Throws: ``TraceError`` naming the line when it is malformed.
    public mutating func read(line rawLine: some StringProtocol) throws(TraceError) -> Sample? {
        guard let row = try readRow(line: rawLine), let display = row.display else { return nil }
        return Sample(time: row.time, acceleration: display)
    }

    /// Reads the next line (without its newline), with the base accelerometer's columns of a two-sensor trace.
    ///
    /// A one-sensor line is `t,x,y,z`. A two-sensor trace (header `t,x,y,z,bx,by,bz`) has seven fields a line:
    /// the display's reading, the base's, or both, the missing one left empty (`0.04,,,,0.1,0.2,9.8`), so that
    /// the two sensors may run at different rates.
    /// - Returns: the line's readings, or nil for a comment, header or blank line.
    /// - Throws: ``TraceError`` naming the line when it is malformed.
    public mutating func readRow(line rawLine: some StringProtocol) throws(TraceError) -> TraceRow? {
        lineNumber += 1
        let line = rawLine.trimmingWhitespace()
        if line.isEmpty { return nil }
        if line.hasPrefix("#") {
            try readComment(line)
            return nil
        }
        let header = line.lowercased().filter { $0 != " " }
        if header == "t,x,y,z" || header == "t,x,y,z,bx,by,bz" {
            guard !sawData else { throw error("the header '\(header)' comes after data") }
            return nil
        }
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.count == 4 || fields.count == 7 else {
            throw error(
                "expected 4 comma-separated numbers (t,x,y,z), or 7 fields (t,x,y,z,bx,by,bz) in a two-sensor "
                    + "trace, found \(fields.count) field\(fields.count == 1 ? "" : "s")"
            )
        }
        let time = try number(fields[0], named: "t")
        let display = try vector(fields, from: 1, names: ("x", "y", "z"), optional: fields.count == 7)
        let base = fields.count == 7 ? try vector(fields, from: 4, names: ("bx", "by", "bz"), optional: true) : nil
        guard display != nil || base != nil else { throw error("the line has neither x,y,z nor bx,by,bz") }
        sawData = true
        return TraceRow(time: time, display: display, base: base)
    }

    /// Three fields from `start` as a vector; nil when they may be and are all empty.
    private func vector(
        _ fields: [Substring],
        from start: Int,
        names: (String, String, String),
        optional: Bool
    ) throws(TraceError) -> Vector3? {
        let texts = fields[start..<start + 3].map { $0.trimmingWhitespace() }
        if optional && texts.allSatisfy(\.isEmpty) { return nil }
        return Vector3(
            x: try number(texts[0], named: names.0),
            y: try number(texts[1], named: names.1),
            z: try number(texts[2], named: names.2)
        )
    }

    private func number(_ field: some StringProtocol, named name: String) throws(TraceError) -> Double {
        let text = field.trimmingWhitespace()
        guard let value = Self.finiteNumber(text) else {
            throw error("\(name) '\(text)' is not a finite number (the decimal point is '.')")
        }
        return value
    }

    private mutating func readComment(_ line: String) throws(TraceError) {
        let body = line.dropFirst().trimmingWhitespace()
        if body.hasPrefix("orientd-trace") {
            let versionText = body.dropFirst("orientd-trace".count).trimmingWhitespace()
            guard let version = Int(versionText) else { throw error("unreadable trace version '\(versionText)'") }
            guard version == Self.version else {
                throw error("trace version \(version) is not supported; this orientd reads version \(Self.version)")
            }
        } else if body.hasPrefix("rate_hz=") {
            let text = body.dropFirst("rate_hz=".count).trimmingWhitespace()
            guard let rate = Self.finiteNumber(text), rate > 0 else {
                throw error("rate_hz '\(text)' is not a positive number")
            }
            rateHz = rate
        }
    }

    /// The finite number `text` spells, or nil.
    ///
    /// `Double(_:)` reads a C string, so it would stop at a NUL byte and take `0<NUL>junk` for 0:
    /// text with a NUL is no number.
    private static func finiteNumber(_ text: String) -> Double? {
        guard !text.utf8.contains(0), let value = Double(text), value.isFinite else { return nil }
        return value
    }

    private func error(_ message: String) -> TraceError {
        TraceError(line: lineNumber, message: message)
    }
}

/// A malformed line in a trace.
public struct TraceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line's number, counting from 1.
    public var line: Int
    /// What is wrong with it.
    public var message: String

    public var description: String { "line \(line): \(message)" }
}
