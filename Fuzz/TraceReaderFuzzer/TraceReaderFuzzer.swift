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

/// libFuzzer's entry: the input is a trace file. It is split into lines as `orientd classify`
/// splits them (at `\n`, bytes decoded as UTF-8 with replacement) and every line goes through
/// one `TraceReader`, which must never crash and must keep these properties:
/// - an error names the line it was raised on and says something;
/// - every field of an accepted sample is a plain number (no stray characters the reader let by);
/// - an accepted sample survives `TraceWriter`: its line reads back, within the rounding of the
///   written decimals, and writing that again gives the same line;
/// - a rate read from `# rate_hz=` comes back exactly from the writer's header.
@_cdecl("LLVMFuzzerTestOneInput")
public func traceReaderFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var reader = TraceReader()
    var number = 0
    for line in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
        number += 1
        let text = String(decoding: line, as: UTF8.self)
        do throws(TraceError) {
            if let sample = try reader.read(line: Substring(text)) { checkSample(sample, line: text) }
        } catch {
            check(error.line == number, "error for line \(error.line) raised on line \(number): \(error)")
            check(!error.message.isEmpty, "error without a message on line \(number)")
        }
        check(reader.lineNumber == number, "reader counted \(reader.lineNumber) lines after \(number)")
    }
    if let rate = reader.rateHz { checkRate(rate) }
    return 0
}

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("TraceReaderFuzzer: \(message())") }
}

private func checkSample(_ sample: Sample, line: String) {
    let values = [sample.time, sample.acceleration.x, sample.acceleration.y, sample.acceleration.z]
    check(values.allSatisfy(\.isFinite), "accepted a non-finite sample from '\(line)'")
    // Decimal (or C hexadecimal) number characters only: nothing else may pass as a number.
    let allowed = Set("0123456789+-.eExXpPabcdefABCDEF".unicodeScalars)
    for field in line.split(separator: ",", omittingEmptySubsequences: false) {
        let number = field.unicodeScalars.drop { $0.properties.isWhitespace }.reversed()
            .drop { $0.properties.isWhitespace }
        check(number.allSatisfy(allowed.contains), "accepted the field '\(field)' as a number in '\(line)'")
    }

    var writer = TraceWriter(startTime: 0)
    let written = writer.line(for: sample)
    var reader = TraceReader()
    let reread: Sample?
    do throws(TraceError) {
        reread = try reader.read(line: written)
    } catch {
        fatalError("TraceReaderFuzzer: the writer's line '\(written)' for '\(line)' does not read back: \(error)")
    }
    guard let reread else { fatalError("TraceReaderFuzzer: the writer's line '\(written)' holds no sample") }
    var rewriter = TraceWriter(startTime: 0)
    check(rewriter.line(for: reread) == written, "'\(written)' written again is '\(rewriter.line(for: reread))'")
    let rereadValues = [reread.time, reread.acceleration.x, reread.acceleration.y, reread.acceleration.z]
    let decimals = [TraceWriter.timeDecimals] + Array(repeating: TraceWriter.accelerationDecimals, count: 3)
    for (index, (value, back)) in zip(values, rereadValues).enumerated() {
        // Half a unit of the last written decimal, plus the rounding of reading the decimal back.
        var step = 0.5
        for _ in 0..<decimals[index] { step /= 10 }
        let tolerance = step * (1 + 1e-9) + 2 * max(value.ulp, back.ulp)
        check((back - value).magnitude <= tolerance, "\(value) from '\(line)' came back as \(back) via '\(written)'")
    }
}

private func checkRate(_ rate: Double) {
    check(rate.isFinite && rate > 0, "accepted the rate \(rate)")
    var reader = TraceReader()
    for line in TraceWriter(rateHz: rate).headerLines {
        do throws(TraceError) {
            let sample = try reader.read(line: line)
            check(sample == nil, "the header line '\(line)' read as a sample")
        } catch {
            fatalError("TraceReaderFuzzer: the header line '\(line)' does not read back: \(error)")
        }
    }
    check(reader.rateHz == rate, "rate \(rate) came back from the header as \(String(describing: reader.rateHz))")
}
