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

/// The two-sensor trace: `t,x,y,z,bx,by,bz`, the display's reading, the base's (systemd's frame: lying flat, z −g), or
/// both on a line.
@Suite struct TwoSensorTraceTests {
    static let trace = [
        "# orientd-trace 1",
        "# rate_hz=25",
        "t,x,y,z,bx,by,bz",
        "0.000000,0.1200,-9.7900,0.3000,0.0100,-0.0200,-9.8000",
        "0.040000,0.1100,-9.7800,0.3100,,,",
        "0.100000,,,,0.0000,-0.0300,-9.8100",
        " 0.120000 , 0.1, -9.8, 0.3 , , , ",
    ]

    @Test func readsDisplayBaseAndBoth() throws {
        var reader = TraceReader()
        var rows: [TraceRow] = []
        for line in Self.trace {
            if let row = try reader.readRow(line: line) { rows.append(row) }
        }
        #expect(
            rows == [
                TraceRow(
                    time: 0,
                    display: Vector3(x: 0.12, y: -9.79, z: 0.3),
                    base: Vector3(x: 0.01, y: -0.02, z: -9.8)
                ),
                TraceRow(time: 0.04, display: Vector3(x: 0.11, y: -9.78, z: 0.31), base: nil),
                TraceRow(time: 0.1, display: nil, base: Vector3(x: 0, y: -0.03, z: -9.81)),
                TraceRow(time: 0.12, display: Vector3(x: 0.1, y: -9.8, z: 0.3), base: nil),
            ]
        )
        #expect(reader.rateHz == 25)
    }

    /// `orientd classify` of a one-sensor trace reads a two-sensor one too: the display's samples, in order.
    @Test func theDisplaysSamplesOfATwoSensorTrace() throws {
        var reader = TraceReader()
        var samples: [Sample] = []
        for line in Self.trace {
            if let sample = try reader.read(line: line) { samples.append(sample) }
        }
        #expect(samples.map(\.time) == [0, 0.04, 0.12])
    }

    @Test(arguments: [
        ("0.1,,,,,,", "neither x,y,z nor bx,by,bz"),
        ("0.1,1,2,,4,5,6", "z '' is not a finite number"),
        ("0.1,1,2,3,4,,6", "by '' is not a finite number"),
        ("0.1,1,2,3,4,5", "found 6 fields"),
        ("0.1,1,2,3,4,5,6,7", "found 8 fields"),
        ("0.1,,,,4,5,nan", "bz 'nan' is not a finite number"),
    ])
    func malformedLinesNameTheirFault(line: String, message: String) {
        var reader = TraceReader()
        #expect {
            _ = try reader.readRow(line: line)
        } throws: { error in
            guard let error = error as? TraceError else { return false }
            return error.line == 1 && error.message.contains(message)
        }
    }

    @Test func aOneSensorLineHasNoBase() throws {
        var reader = TraceReader()
        let row = try #require(try reader.readRow(line: "1.5,0,-9.8,0"))
        #expect(row == TraceRow(time: 1.5, display: Vector3(x: 0, y: -9.8, z: 0), base: nil))
    }

    @Test func theTwoSensorHeaderAfterDataIsAnError() {
        var reader = TraceReader()
        #expect(throws: TraceError.self) {
            _ = try reader.readRow(line: "0,0,-9.8,0")
            _ = try reader.readRow(line: "t,x,y,z,bx,by,bz")
        }
    }
}
