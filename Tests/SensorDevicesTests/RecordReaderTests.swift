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

import Glibc
import SystemSupport
import Testing

@testable import SensorDevices

/// Records of one size read from a non-blocking descriptor (a pipe here, as a buffer's or an evdev node's).
@Suite struct RecordReaderTests {
    /// The first byte of each record handed on, for records whose bytes all equal their number.
    static func drain(_ reader: inout RecordReader, _ file: FileDescriptor) -> ([UInt8], RecordReader.Outcome) {
        var firsts: [UInt8] = []
        let outcome = reader.drain(file) { firsts.append($0.load(as: UInt8.self)) }
        return (firsts, outcome)
    }

    @Test func aRecordSplitAcrossReadsIsHandedOnWhenItsRestComes() throws {
        let (readEnd, writeEnd) = try FileDescriptor.makePipe()
        defer { readEnd.close() }
        #expect(fcntl(readEnd.rawValue, F_SETFL, O_NONBLOCK) == 0)
        var reader = RecordReader(recordSize: 4, recordsPerRead: 2)
        // Two whole records and half of a third: the half waits.
        try writeEnd.writeAll([1, 1, 1, 1, 2, 2, 2, 2, 3, 3])
        var (firsts, outcome) = Self.drain(&reader, readEnd)
        #expect(firsts == [1, 2])
        #expect(outcome == .drained)
        // The rest of it, and more records than one read takes.
        try writeEnd.writeAll([3, 3, 4, 4, 4, 4, 5, 5, 5, 5])
        (firsts, outcome) = Self.drain(&reader, readEnd)
        #expect(firsts == [3, 4, 5])
        #expect(outcome == .drained)
        // The writer goes: the end.
        writeEnd.close()
        (firsts, outcome) = Self.drain(&reader, readEnd)
        #expect(firsts.isEmpty)
        #expect(outcome == .ended)
    }

    @Test func aFailedReadIsTold() throws {
        let (readEnd, writeEnd) = try FileDescriptor.makePipe()
        defer { readEnd.close() }
        var reader = RecordReader(recordSize: 4, recordsPerRead: 2)
        // Reading the write end fails (EBADF): nothing is handed on.
        let (firsts, outcome) = Self.drain(&reader, writeEnd)
        writeEnd.close()
        #expect(firsts.isEmpty)
        #expect(outcome == .failed(Errno(EBADF)))
    }
}
