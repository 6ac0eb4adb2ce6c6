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
import OrientdTestSupport
import Testing

/// The writer of the trace format of CLASSIFIER.md: what it writes, ``TraceReader`` reads back.
@Suite struct TraceWriterTests {
    /// Values and their text, rounded by hand from the double's exact value (ties away from zero).
    static let decimalTexts: [(value: Double, decimals: Int, text: String)] = [
        (0, 4, "0.0000"),
        (0.12, 4, "0.1200"),
        (-9.79, 4, "-9.7900"),
        (0.3, 4, "0.3000"),
        (9.80665, 4, "9.8066"),  // the double is 9.8066499999999994230
        (1.23455, 4, "1.2346"),  // 1.2345500000000000362
        (1.00005, 4, "1.0001"),  // 1.0000500000000001055
        (2.00005, 4, "2.0000"),  // 2.0000499999999998835
        (0.00015, 4, "0.0001"),  // 0.00014999999999999998686
        (0.00005, 4, "0.0001"),  // 0.000050000000000000000240
        (-0.00005, 4, "-0.0001"),
        (9.99995, 4, "10.0000"),
        (-9.99995, 4, "-10.0000"),
        // Exact ties: 1/32 and 1/128 are binary fractions.
        (0.03125, 4, "0.0313"),
        (-0.03125, 4, "-0.0313"),
        (0.0078125, 6, "0.007813"),
        (2.5, 0, "3"),
        (-2.5, 0, "-3"),
        (0.5, 0, "1"),
        (0.49999999999999994, 0, "0"),
        // Zero and values that round to it carry no sign.
        (-0.0, 4, "0.0000"),
        (-0.00004, 4, "0.0000"),
        (0.00004999, 4, "0.0000"),
        (-0.0000004, 6, "0.000000"),
        (Double.leastNonzeroMagnitude, 4, "0.0000"),
        (-Double.leastNonzeroMagnitude, 6, "0.000000"),
        // Times.
        (0.04, 6, "0.040000"),
        (123.4567895, 6, "123.456789"),  // 123.45678949999999...
        (0.99999996, 6, "1.000000"),
        (86400.000001, 6, "86400.000001"),
        // Large values, in full.
        (1e6, 4, "1000000.0000"),
        (-1234567.89, 4, "-1234567.8900"),
        (1e20, 4, "100000000000000000000.0000"),
        (
            0x1p200, 4,
            "1606938044258990275541962092341162602522202993782792835301376.0000"
        ),
        (
            -Double.greatestFiniteMagnitude, 0,
            "-17976931348623157081452742373170435679807056752584499659891747680315726078002853876058955"
                + "8632766878171540458953514382464234321326889464182768467546703537516986049910576551282076"
                + "2454900903893289440758685084551339423045832369032229481658085593321233482747978262041447"
                + "23168738177180919299881250404026184124858368"
        ),
        (12.5, 0, "13"),
        (7, 18, "7.000000000000000000"),
    ]

    @Test(arguments: decimalTexts)
    func decimalTextRoundsCorrectly(value: Double, decimals: Int, text: String) {
        #expect(TraceWriter.decimalText(value, decimals: decimals) == text)
    }

    @Test func headerWithAndWithoutARate() {
        #expect(TraceWriter(rateHz: 25).headerLines == ["# orientd-trace 1", "# rate_hz=25", "t,x,y,z"])
        #expect(TraceWriter(rateHz: 12.5).headerLines == ["# orientd-trace 1", "# rate_hz=12.5", "t,x,y,z"])
        #expect(TraceWriter().headerLines == ["# orientd-trace 1", "t,x,y,z"])
    }

    @Test func timeCountsFromTheFirstSampleByDefault() {
        var writer = TraceWriter(rateHz: 25)
        #expect(writer.startTime == nil)
        #expect(writer.line(for: Sample(time: 100, x: 0.12, y: -9.79, z: 0.3)) == "0.000000,0.1200,-9.7900,0.3000")
        #expect(writer.startTime == 100)
        #expect(writer.line(for: Sample(time: 100.04, x: 0.11, y: -9.8, z: 0.29)) == "0.040000,0.1100,-9.8000,0.2900")
        #expect(
            writer.line(for: Sample(time: 99.5, x: -0.00004, y: 0, z: 1e6)) == "-0.500000,0.0000,0.0000,1000000.0000"
        )
    }

    @Test func timeCountsFromAGivenStart() {
        var writer = TraceWriter(startTime: 10)
        #expect(writer.line(for: Sample(time: 12.25, x: 1, y: -2, z: 3)) == "2.250000,1.0000,-2.0000,3.0000")
        #expect(writer.startTime == 10)
    }

    @Test func writesTheDocumentedExample() {
        var writer = TraceWriter(rateHz: 25)
        // Written as orientd record's trace sink writes it: the header lines, then a line a sample.
        var text = writer.headerLines.map { $0 + "\n" }.joined()
        text += writer.line(for: Sample(time: 5, x: 0.12, y: -9.79, z: 0.3)) + "\n"
        text += writer.line(for: Sample(time: 5.04, x: 0.11, y: -9.8, z: 0.29)) + "\n"
        #expect(
            text == """
                # orientd-trace 1
                # rate_hz=25
                t,x,y,z
                0.000000,0.1200,-9.7900,0.3000
                0.040000,0.1100,-9.8000,0.2900

                """
        )
    }

    /// Samples with magnitudes from 1e-7 to 1e11, times drifting like a real clock, and binary
    /// fractions that land on exact ties.
    static func randomSamples(count: Int) -> [Sample] {
        var random = SeededGenerator(seed: 0x7EA_CE5)
        var time = 1_234.5
        var samples: [Sample] = []
        for index in 0..<count {
            time += 0.04 + random.unit() * 0.001
            func value() -> Double {
                switch index % 4 {
                case 0: return (random.unit() * 2 - 1) * 20
                case 1: return (random.unit() < 0.5 ? -1 : 1) * random.powerOfTen(from: -7, to: 10)
                case 2: return Double(Int64(random.next() % 2_000_001) - 1_000_000) / 65536
                default: return (random.unit() * 2 - 1) * 1e-4
                }
            }
            samples.append(Sample(time: time, x: value(), y: value(), z: value()))
        }
        return samples
    }

    @Test func traceReaderReadsBackWhatTheWriterWrote() throws {
        let samples = Self.randomSamples(count: 20_000)
        var writer = TraceWriter(rateHz: 25)
        var text = writer.headerLines.map { $0 + "\n" }.joined()
        for sample in samples { text += writer.line(for: sample) + "\n" }

        var reader = TraceReader()
        var read: [Sample] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let sample = try reader.read(line: line) { read.append(sample) }
        }
        #expect(reader.rateHz == 25)
        try #require(read.count == samples.count)
        let start = samples[0].time
        for (original, back) in zip(samples, read) {
            let exact = original.time - start
            #expect(Self.isWithinPrintedPrecision(back.time, of: exact, decimals: 6), "t \(exact) read as \(back.time)")
            let pairs = [
                (original.acceleration.x, back.acceleration.x),
                (original.acceleration.y, back.acceleration.y),
                (original.acceleration.z, back.acceleration.z),
            ]
            for (value, readBack) in pairs {
                #expect(Self.isWithinPrintedPrecision(readBack, of: value, decimals: 4), "\(value) read as \(readBack)")
            }
        }
    }

    /// Writing what was read back gives the same text: the printed value is the rounding of the
    /// value read, and every line has exactly the stated number of decimals.
    @Test func rewritingWhatWasReadGivesTheSameText() {
        for sample in Self.randomSamples(count: 5_000) {
            for value in [sample.acceleration.x, sample.acceleration.y, sample.acceleration.z] {
                let text = TraceWriter.decimalText(value, decimals: 4)
                let fraction = text.split(separator: ".", omittingEmptySubsequences: false)
                #expect(fraction.count == 2 && fraction[1].count == 4 && fraction[1].allSatisfy(\.isNumber), "\(text)")
                #expect(text != "-0.0000")
                guard let readBack = Double(text) else {
                    Issue.record("'\(text)' does not parse")
                    continue
                }
                #expect(TraceWriter.decimalText(readBack, decimals: 4) == text)
            }
        }
    }

    /// Whether `read` is `exact` rounded to `decimals` places, up to the double nearest that.
    static func isWithinPrintedPrecision(_ read: Double, of exact: Double, decimals: Int) -> Bool {
        var halfStep = 0.5
        for _ in 0..<decimals { halfStep /= 10 }
        return (read - exact).magnitude <= halfStep + 2 * max(read.ulp, exact.ulp)
    }
}

extension SeededGenerator {
    /// A mantissa in [1, 10) times a power of ten between the bounds.
    fileprivate mutating func powerOfTen(from low: Int, to high: Int) -> Double {
        var value = 1 + unit() * 9
        let exponent = low + Int(next() % UInt64(high - low + 1))
        for _ in 0..<exponent.magnitude {
            if exponent < 0 { value /= 10 } else { value *= 10 }
        }
        return value
    }
}

/// Two-sensor traces: what the writer writes for each sensor, the reader reads back as the same rows.
@Suite struct TwoSensorTraceWriterTests {
    @Test func displayAndBaseLinesReadBack() throws {
        var writer = TraceWriter(rateHz: 25, withBase: true)
        let text =
            writer.headerLines.joined(separator: "\n") + "\n"
            + writer.line(for: Sample(time: 10, x: 0.1, y: -9.8, z: 0.3)) + "\n"
            + writer.baseLine(for: Sample(time: 10.04, x: 0, y: -0.2, z: -9.81)) + "\n"
        #expect(
            text.contains("t,x,y,z,bx,by,bz\n0.000000,0.1000,-9.8000,0.3000,,,\n0.040000,,,,0.0000,-0.2000,-9.8100\n")
        )
        var reader = TraceReader()
        var rows: [TraceRow] = []
        for line in text.split(separator: "\n") {
            if let row = try reader.readRow(line: line) { rows.append(row) }
        }
        #expect(rows.count == 2)
        #expect(rows.first?.display == Vector3(x: 0.1, y: -9.8, z: 0.3) && rows.first?.base == nil)
        #expect(rows.last?.base == Vector3(x: 0, y: -0.2, z: -9.81) && rows.last?.display == nil)
        #expect((rows.last?.time ?? 0) == 0.04)
    }

    @Test func aOneSensorTraceIsUnchanged() {
        var writer = TraceWriter(rateHz: 25)
        #expect(writer.headerLines.last == "t,x,y,z")
        #expect(writer.line(for: Sample(time: 1, x: 0, y: 0, z: 9.8)) == "0.000000,0.0000,0.0000,9.8000")
    }
}
