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

import Foundation
import OrientationCore
import Testing

/// The inputs the trace reader's fuzz target (Fuzz/TraceReaderFuzzer) failed on, kept in
/// Fuzz/Regressions/trace-reader/. Each is read as the fuzz target reads it (lines split at `\n`,
/// bytes decoded as UTF-8, every line given to one reader, also after an error) and must give
/// exactly the errors written here for it, each on its line.
@Suite struct TraceReaderFuzzRegressionTests {
    /// Every kept input, by file name: its errors, each as its line and how the message starts.
    static let expectedErrors: [String: [(line: Int, message: String)]] = [
        // `Double(_:)` stopped at the NUL and read "0": the field is no number.
        "nul-inside-a-number.trace": [(1, "x '0\u{0}\u{0}"), (2, "y '-0x1.8orientd-tracep8'")],
        // U+0614 combines with the space before it into one character, which was trimmed as
        // whitespace: the field read as ".5".
        "mark-combining-with-a-space.trace": [(2, "z '9.81\r\u{2}'"), (3, "x '\u{614}.5'")],
    ]

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Fuzz/Regressions/trace-reader").standardized

    @Test func everyKeptInputHasItsExpectedErrors() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.folder.path)
        #expect(Set(names) == Set(Self.expectedErrors.keys))
    }

    @Test(arguments: expectedErrors.keys.sorted())
    func keptInputGivesItsErrors(name: String) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.folder.appendingPathComponent(name)))
        var reader = TraceReader()
        var errors: [TraceError] = []
        for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            do {
                _ = try reader.read(line: String(decoding: line, as: UTF8.self))
            } catch {
                errors.append(error)
            }
        }
        let expected = try #require(Self.expectedErrors[name])
        #expect(errors.map(\.line) == expected.map(\.line), "\(errors)")
        for (error, (_, message)) in zip(errors, expected) {
            #expect(error.message.hasPrefix(message), "\(error)")
        }
    }

    @Test(arguments: ["0.0,1\u{0}5,0,0", "0\u{0},0,0,0", "0,0,0,9.81\u{0}"])
    func aNumberWithANULIsRefused(line: String) {
        var reader = TraceReader()
        #expect(throws: TraceError.self) { try reader.read(line: line) }
    }

    @Test(arguments: [" \u{614}.5,0,0,0", "0, \u{301}1,0,0", " \u{614}0,1,2,3"])
    func aMarkCombiningWithASpaceIsNoWhitespace(line: String) {
        var reader = TraceReader()
        #expect(throws: TraceError.self) { try reader.read(line: line) }
    }

    @Test func aRateWithANULIsRefused() {
        var reader = TraceReader()
        let error = #expect(throws: TraceError.self) { try reader.read(line: "# rate_hz=25\u{0}0") }
        #expect(error?.line == 1)
        #expect(error?.message == "rate_hz '25\u{0}0' is not a positive number")
        #expect(reader.rateHz == nil)
    }
}
