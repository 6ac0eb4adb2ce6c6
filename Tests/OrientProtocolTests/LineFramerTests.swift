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

@Suite struct LineFramerTests {
    private static func feed(_ framer: inout LineFramer, _ text: String) {
        Array(text.utf8).withUnsafeBytes { framer.append($0) }
    }

    @Test func splitsLinesAcrossReads() {
        var framer = LineFramer(limit: 4096)
        Self.feed(&framer, "{\"a\":1}\n{\"b\"")
        #expect(framer.nextLine() == .line(Array("{\"a\":1}".utf8)))
        #expect(framer.nextLine() == .incomplete)
        Self.feed(&framer, ":2}\r\n")
        #expect(framer.nextLine() == .line(Array("{\"b\":2}".utf8)))
        #expect(framer.nextLine() == .incomplete)
        #expect(framer.pendingCount == 0)
    }

    @Test func aLineOfExactlyTheLimitIsAccepted() {
        var framer = LineFramer(limit: 4096)
        Self.feed(&framer, String(repeating: "x", count: 4096) + "\n")
        #expect(framer.nextLine() == .line(Array(repeating: UInt8(ascii: "x"), count: 4096)))
    }

    @Test func overTheLimitWithOrWithoutNewlineIsTooLong() {
        var framer = LineFramer(limit: 4096)
        Self.feed(&framer, String(repeating: "x", count: 4097) + "\n")
        #expect(framer.nextLine() == .tooLong)
        var unterminated = LineFramer(limit: 4096)
        Self.feed(&unterminated, String(repeating: "x", count: 5000))
        #expect(unterminated.nextLine() == .tooLong)
    }

    /// A client writing a byte at a time gets the same lines, and the same refusal past the limit.
    @Test func bytesArrivingOneAtATime() {
        var framer = LineFramer(limit: 8)
        var lines: [[UInt8]] = []
        for byte in Array("ab\r\n\ncdefgh\nxyz".utf8) {
            Self.feed(&framer, String(decoding: [byte], as: UTF8.self))
            while case .line(let line) = framer.nextLine() { lines.append(line) }
        }
        #expect(lines == [Array("ab".utf8), [], Array("cdefgh".utf8)])
        #expect(framer.pendingCount == 3)
        Self.feed(&framer, "456789")
        #expect(framer.nextLine() == .tooLong)
    }

    @Test func bytesAfterTheNewlineWaitForTheNextLine() {
        var framer = LineFramer(limit: 16)
        Self.feed(&framer, "a\nb\nc")
        #expect(framer.nextLine() == .line([UInt8(ascii: "a")]))
        #expect(framer.nextLine() == .line([UInt8(ascii: "b")]))
        #expect(framer.nextLine() == .incomplete)
        #expect(framer.pendingCount == 1)
    }
}
