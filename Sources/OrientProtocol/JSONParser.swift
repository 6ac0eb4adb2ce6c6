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

/// A strict JSON parser (RFC 8259) over the bytes of one request line, in time linear in its length.
///
/// `JSONDecoder` decoding a ``JSONValue`` has to try each type in turn, and every failed attempt builds an error
/// with the whole coding path: a line of 400 nested arrays took the daemon's only thread over a second, which a
/// client could repeat to starve every other one. This parser looks at each byte once.
struct JSONParser {
    /// The deepest nesting accepted, as `JSONDecoder` (a request line of at most 4096 bytes could nest 2048 deep).
    static let maximumDepth = 512

    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Parses one JSON text: a value with only whitespace around it.
    static func parse(_ bytes: some Collection<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(Array(bytes))
        parser.skipWhitespace()
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == parser.bytes.count else { throw parser.error("text after the value") }
        return value
    }

    private func error(_ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(reason: reason, offset: index)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func value() throws(JSONSyntaxError) -> JSONValue {
        guard let byte = current else { throw error("the text ends where a value should be") }
        switch byte {
        case UInt8(ascii: "{"):
            try enter()
            defer { depth -= 1 }
            return try object()
        case UInt8(ascii: "["):
            try enter()
            defer { depth -= 1 }
            return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw error("not the start of a value")
        }
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) deep") }
    }

    private mutating func object() throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            guard current == UInt8(ascii: "\"") else { throw error("an object's key must be a string") }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("':' expected after a key") }
            index += 1
            skipWhitespace()
            // A duplicate key: the last value is taken (PROTOCOL.md allows either).
            members[key] = try value()
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default:
                throw error("',' or '}' expected in an object")
            }
        }
    }

    private mutating func array() throws(JSONSyntaxError) -> JSONValue {
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(items)
        }
        while true {
            items.append(try value())
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                index += 1
                return .array(items)
            default:
                throw error("',' or ']' expected in an array")
            }
        }
    }

    private mutating func literal(_ word: StaticString, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
            bytes[index..<index + count].elementsEqual(UnsafeBufferPointer(start: word.utf8Start, count: count))
        else { throw error("not a value") }
        index += count
        return value
    }

    /// A number: an integer that fits in 64 bits stays one; anything else is a Double (±infinity when too large).
    private mutating func number() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        var isInteger = true
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
        } else {
            guard try digits() > 0 else { throw error("a digit expected in a number") }
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard try digits() > 0 else { throw error("a digit expected after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard try digits() > 0 else { throw error("a digit expected in an exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let integer = Int64(text) { return .integer(integer) }
        guard let double = Double(text) else { throw error("not a number") }
        return .number(double)
    }

    private mutating func digits() throws(JSONSyntaxError) -> Int {
        let start = index
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        return index - start
    }

    /// A string, its escapes resolved; the bytes must be UTF-8 and control characters escaped.
    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = current else { throw error("a string is not closed") }
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard let text = String(validating: utf8, as: UTF8.self) else { throw error("a string is not UTF-8") }
                return text
            case UInt8(ascii: "\\"):
                try escape(into: &utf8)
            case ..<0x20:
                throw error("a control character in a string")
            default:
                utf8.append(byte)
            }
        }
    }

    private mutating func escape(into utf8: inout [UInt8]) throws(JSONSyntaxError) {
        guard let byte = current else { throw error("a string is not closed") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
            utf8.append(byte)
            return
        case UInt8(ascii: "b"):
            utf8.append(0x08)
            return
        case UInt8(ascii: "f"):
            utf8.append(0x0C)
            return
        case UInt8(ascii: "n"):
            utf8.append(0x0A)
            return
        case UInt8(ascii: "r"):
            utf8.append(0x0D)
            return
        case UInt8(ascii: "t"):
            utf8.append(0x09)
            return
        case UInt8(ascii: "u"): break
        default: throw error("an unknown escape in a string")
        }
        var scalar = try hexQuad()
        if (0xD800..<0xDC00).contains(scalar) {
            guard current == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u") else {
                throw error("a lone surrogate in a string")
            }
            index += 2
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low) else { throw error("a lone surrogate in a string") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw error("a lone surrogate in a string") }
        utf8.append(contentsOf: String(Character(unicode)).utf8)
    }

    private mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("four hex digits expected after \\u") }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw error("four hex digits expected after \\u")
            }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }
}

/// Why a line is not JSON, and the byte offset where that showed.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var reason: String
    /// The byte offset in the line.
    public var offset: Int

    public var description: String { "\(reason) (at byte \(offset))" }
}
