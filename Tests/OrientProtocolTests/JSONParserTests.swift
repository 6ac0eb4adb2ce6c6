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

import OrientProtocol
import Testing

@Suite struct JSONParserTests {
    @Test(arguments: [
        (
            #"{"a": [1, -2, 3.5, true, false, null, "x"]}"#,
            JSONValue.object([
                "a": .array([.integer(1), .integer(-2), .number(3.5), .bool(true), .bool(false), .null, .string("x")])
            ])
        ),
        (" \t\r\n{ } \n", .object([:])),
        ("[]", .array([])),
        ("-0", .integer(0)),
        ("9223372036854775807", .integer(Int64.max)),
        ("9223372036854775808", .number(9_223_372_036_854_775_808)),
        ("1E+2", .number(100)),
        ("1e400", .number(.infinity)),
        ("-1e400", .number(-.infinity)),
        (#""\"\\\/\b\f\n\r\t""#, .string("\"\\/\u{8}\u{c}\n\r\t")),
        (#""\u00e9\u20AC\ud83d\ude00""#, .string("é€😀")),
        ("\"é\"", .string("é")),
        (#"{"k": 1, "k": 2}"#, .object(["k": .integer(2)])),
    ])
    func validTexts(text: String, expected: JSONValue) throws {
        #expect(try JSONValue.parse(Array(text.utf8)) == expected)
    }

    @Test(arguments: [
        Array("".utf8), Array("{".utf8), Array("{\"a\" 1}".utf8), Array("[1,]".utf8), Array("{\"a\":1,}".utf8),
        Array("01".utf8), Array("1.".utf8), Array(".5".utf8), Array("1e".utf8), Array("+1".utf8), Array("NaN".utf8),
        Array("Infinity".utf8), Array("tru".utf8), Array("nul".utf8), Array("{} {}".utf8), Array("'a'".utf8),
        Array("{a: 1}".utf8), Array("\"a".utf8), Array("\"\\x\"".utf8), Array("\"\\u12\"".utf8),
        Array("\"\\ud800\"".utf8), Array("\"\\udc00\"".utf8), Array("\"\t\"".utf8), [0x22, 0xFF, 0x22],
        [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0xEF, 0xBB, 0xBF, 0x7B, 0x7D], [0x7B, 0x00, 0x7D],
    ])
    func invalidTexts(bytes: [UInt8]) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(bytes) }
    }

    @Test func nestingUpTo512IsAcceptedAndDeeperIsRefused() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(throws: Never.self) { try JSONValue.parse(Array(deepest.utf8)) }
        let deeper = String(repeating: "{\"a\":", count: 513) + "1" + String(repeating: "}", count: 513)
        let error = #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(Array(deeper.utf8)) }
        #expect(error?.reason.contains("512") == true)
    }

    /// A huge number where an id must be is valid JSON with a wrong id: `invalid-request`, not `parse-error`.
    @Test(arguments: [#"{"id": 1e400, "method": "get"}"#, #"{"id": 123456789012345678901234567890, "method": "get"}"#])
    func hugeNumbersAreWrongValuesNotBadJSON(text: String) {
        guard case .failure(let id, let error) = RequestDecoder.decode(Array(text.utf8)) else {
            Issue.record("accepted \(text)")
            return
        }
        #expect(id == nil)
        #expect(error.code == .invalidRequest, "\(error)")
    }
}
