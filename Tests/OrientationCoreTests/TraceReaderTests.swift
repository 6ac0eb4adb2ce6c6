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

import OrientationCore
import Testing

/// The trace format of CLASSIFIER.md: `# orientd-trace 1`, `# rate_hz=N`, `t,x,y,z`, data lines;
/// `#` lines are comments; a malformed line is an error naming its line number.
@Suite struct TraceReaderTests {
    /// Reads lines until the end or the first error.
    static func read(_ lines: [String]) -> (reader: TraceReader, samples: [Sample], error: TraceError?) {
        var reader = TraceReader()
        var samples: [Sample] = []
        for line in lines {
            do {
                if let sample = try reader.read(line: line) { samples.append(sample) }
            } catch {
                return (reader, samples, error)
            }
        }
        return (reader, samples, nil)
    }

    static let documentExample = [
        "# orientd-trace 1",
        "# rate_hz=25",
        "t,x,y,z",
        "0.000000,0.1200,-9.7900,0.3000",
        "0.040000,0.1100,-9.8000,0.2900",
    ]

    @Test func readsTheDocumentedFormat() throws {
        let (reader, samples, error) = Self.read(Self.documentExample)
        #expect(error == nil)
        #expect(reader.rateHz == 25)
        #expect(
            samples == [
                Sample(time: 0, x: 0.12, y: -9.79, z: 0.3),
                Sample(time: 0.04, x: 0.11, y: -9.8, z: 0.29),
            ]
        )
    }

    @Test func skipsBlankLinesAndComments() throws {
        let lines = [
            "# orientd-trace 1", "", "# recorded by orientd record on a test machine", "# rate_hz=100",
            "t,x,y,z", "", "0.01,1,2,3", "   ", "# a note in the middle", "0.02,-1e-1,2.5E1,-3",
        ]
        let (reader, samples, error) = Self.read(lines)
        #expect(error == nil)
        #expect(reader.rateHz == 100)
        #expect(samples == [Sample(time: 0.01, x: 1, y: 2, z: 3), Sample(time: 0.02, x: -0.1, y: 25, z: -3)])
    }

    @Test func readsCRLFLineEndings() throws {
        let lines = Self.documentExample.map { $0 + "\r" } + ["\r"]
        let (reader, samples, error) = Self.read(lines)
        #expect(error == nil)
        #expect(reader.rateHz == 25)
        #expect(samples.count == 2)
        #expect(samples.first == Sample(time: 0, x: 0.12, y: -9.79, z: 0.3))
    }

    static let malformed: [(String, String)] = [
        ("3 fields", "0.08,0.1,-9.8"),
        ("5 fields", "0.08,0.1,-9.8,0.3,1"),
        ("not a number", "0.08,abc,-9.8,0.3"),
        ("empty field", "0.08,,-9.8,0.3"),
        ("nan", "0.08,0.1,nan,0.3"),
        ("inf", "0.08,0.1,-9.8,inf"),
        ("infinite time", "inf,0.1,-9.8,0.3"),
        ("comma decimal", "0,08;0,1;-9,8;0,3"),
        ("header after data", "t,x,y,z"),
    ]

    @Test(arguments: malformed)
    func malformedLineNamesItsNumber(what: String, line: String) {
        // Line 6: after the header, one data line and a blank line.
        let lines = Self.documentExample.prefix(4) + ["", line, "0.12,0.1,-9.8,0.3"]
        let (reader, samples, error) = Self.read(Array(lines))
        #expect(error?.line == 6, "\(what)")
        #expect(error.map { String(describing: $0).hasPrefix("line 6") } == true, "\(what)")
        #expect(samples.count == 1)
        #expect(reader.lineNumber == 6)
    }

    @Test func unsupportedVersionIsAnError() {
        let (_, samples, error) = Self.read(["# orientd-trace 2", "t,x,y,z", "0,0,-9.8,0"])
        #expect(error?.line == 1)
        #expect(samples.isEmpty)
    }

    @Test func unsupportedVersionLaterInTheFileNamesItsLine() {
        let (_, _, error) = Self.read(["", "", "# orientd-trace 2"])
        #expect(error?.line == 3)
    }
}
