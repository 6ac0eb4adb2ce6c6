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

/// Writes compact JSON text (RFC 8259) into a byte buffer that can be reused from one message to the next.
///
/// The caller writes keys in the order they must appear (the daemon's messages sort them); the writer puts
/// the commas and colons in. Nothing allocates once the buffer has room for the message (a `Double`'s digits
/// may, when they are longer than 15 characters).
public struct JSONWriter: Sendable {
    /// The text written so far.
    public private(set) var bytes: [UInt8]
    /// Whether the next member or element needs a comma before it.
    private var needsComma = false

    /// An empty writer.
    public init() {
        bytes = []
    }

    /// A writer with room for `capacity` bytes before it grows.
    public init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Empties the buffer, keeping its capacity, to write the next message.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    /// Appends a newline, ending a line of the protocol.
    public mutating func newline() {
        bytes.append(UInt8(ascii: "\n"))
    }

    // MARK: Structure

    /// Writes `{`, the members `body` writes, and `}`.
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// Writes `[`, the elements `body` writes, and `]`.
    public mutating func array(_ body: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "["))
        body(&self)
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// Writes an array of the elements of `values`.
    public mutating func array<Values: Sequence>(_ values: Values) where Values.Element: JSONWritable {
        array { json in
            for value in values { json.value(value) }
        }
    }

    /// Writes a member's key; its value must follow. Keys are fixed ASCII words, written as they are.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    // MARK: Values

    /// Writes a value that writes itself.
    public mutating func value(_ value: some JSONWritable) {
        value.write(to: &self)
    }

    /// Writes `null`.
    public mutating func null() {
        literal("null")
    }

    /// Writes `true` or `false`.
    public mutating func bool(_ value: Bool) {
        literal(value ? "true" : "false")
    }

    /// Writes an integer in decimal.
    public mutating func integer(_ value: some BinaryInteger) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        let magnitude = UInt64(value.magnitude)
        var divisor: UInt64 = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        } while divisor > 0
        needsComma = true
    }

    /// Writes a number as `JSONEncoder` does: Swift's shortest round-trip digits, without a trailing `.0`
    /// (`3723`, `0.5`, `1e-05`, `1e+16`). JSON has no infinity or NaN: those are written as `null`.
    public mutating func number(_ value: Double) {
        guard value.isFinite else { return null() }
        separate()
        let text = value.description
        var digits = text.utf8[...]
        if digits.count > 2, digits.last == UInt8(ascii: "0"), digits.dropLast().last == UInt8(ascii: ".") {
            digits = digits.dropLast(2)
        }
        bytes.append(contentsOf: digits)
        needsComma = true
    }

    /// Writes a string, escaping what RFC 8259 requires: `"`, `\` and the control characters U+0000–U+001F
    /// (as `\b`, `\t`, `\n`, `\f`, `\r` where JSON has a short form, `\u00XX` otherwise). Everything else,
    /// `/` and non-ASCII included, is written as its UTF-8.
    public mutating func string(_ text: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { appendEscaped($0) }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// Writes a string, or `null` for nil.
    public mutating func string(_ text: String?) {
        if let text { string(text) } else { null() }
    }

    // MARK: Members

    /// Writes a member.
    public mutating func member(_ name: StaticString, _ value: some JSONWritable) {
        key(name)
        self.value(value)
    }

    /// Writes a member whose value may be nil: `null` then, as `Encodable` writes `encode(_:forKey:)` of an
    /// optional.
    public mutating func member(_ name: StaticString, _ value: (some JSONWritable)?) {
        key(name)
        if let value { self.value(value) } else { null() }
    }

    /// Writes a member only when its value is not nil, as `Encodable` writes `encodeIfPresent(_:forKey:)`.
    public mutating func memberIfPresent(_ name: StaticString, _ value: (some JSONWritable)?) {
        guard let value else { return }
        key(name)
        self.value(value)
    }

    // MARK: Members named by coding keys

    /// Writes a member's key from a type's `CodingKeys`, so that its `Codable` conformance and its writer spell each
    /// key once. Coding keys are fixed ASCII words.
    public mutating func key(_ codingKey: some CodingKey) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: codingKey.stringValue.utf8)
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    /// Writes a member named by a coding key.
    public mutating func member(_ codingKey: some CodingKey, _ value: some JSONWritable) {
        key(codingKey)
        self.value(value)
    }

    /// Writes a member named by a coding key only when its value is not nil (`encodeIfPresent(_:forKey:)`).
    public mutating func memberIfPresent(_ codingKey: some CodingKey, _ value: (some JSONWritable)?) {
        guard let value else { return }
        key(codingKey)
        self.value(value)
    }

    // MARK: Helpers

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }

    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        needsComma = false
    }

    private mutating func literal(_ word: StaticString) {
        separate()
        word.withUTF8Buffer { bytes.append(contentsOf: $0) }
        needsComma = true
    }

    private static let hexDigits: StaticString = "0123456789abcdef"

    /// Appends a string's UTF-8, escaped; runs of bytes that need no escape are copied at once.
    private mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in utf8.indices {
            let byte = utf8[index]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            runStart = index + 1
            bytes.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
            case 0x08: bytes.append(UInt8(ascii: "b"))
            case 0x09: bytes.append(UInt8(ascii: "t"))
            case 0x0A: bytes.append(UInt8(ascii: "n"))
            case 0x0C: bytes.append(UInt8(ascii: "f"))
            case 0x0D: bytes.append(UInt8(ascii: "r"))
            default:
                Self.hexDigits.withUTF8Buffer { hex in
                    bytes.append(UInt8(ascii: "u"))
                    bytes.append(UInt8(ascii: "0"))
                    bytes.append(UInt8(ascii: "0"))
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0xF)])
                }
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
    }
}

extension String: JSONWritable {
    public func write(to json: inout JSONWriter) { json.string(self) }
}

extension Int: JSONWritable {
    public func write(to json: inout JSONWriter) { json.integer(self) }
}

extension UInt64: JSONWritable {
    public func write(to json: inout JSONWriter) { json.integer(self) }
}

extension Double: JSONWritable {
    public func write(to json: inout JSONWriter) { json.number(self) }
}

extension Array: JSONWritable where Element: JSONWritable {
    public func write(to json: inout JSONWriter) { json.array(self) }
}

extension Bool: JSONWritable {
    public func write(to json: inout JSONWriter) { json.bool(self) }
}
