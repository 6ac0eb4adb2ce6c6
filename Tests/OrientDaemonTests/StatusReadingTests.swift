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

import EngineFakes
import OrientProtocol
import OrientationCore
import SensorDevices
import Testing

@testable import OrientDaemon

/// `status` shows each sensor's last reading before its mount matrix (what `orientd calibrate` takes its poses from
/// when the driver refuses it raw readings while the daemon reads the buffer): the last sample turned back by the
/// inverse of the matrix in force, and nothing while nobody generates.
@Suite struct StatusReadingTests {
    /// A display accelerometer turned a quarter, and a base one reflected (the Chuwi Hi10 X's matrix).
    private func withTurnedSensors(
        display: String = "0, -1, 0; 1, 0, 0; 0, 0, 1",
        _ body: (EngineRig) throws -> Void
    ) throws {
        var displayAccelerometer = FakeSensor.displayAccelerometer
        displayAccelerometer.calibration.matrix = try MountMatrix(parsing: display)
        var baseAccelerometer = FakeSensor.baseAccelerometer
        baseAccelerometer.calibration.matrix = try MountMatrix(parsing: "0, 1, 0; 1, 0, 0; 0, 0, 1")
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(
                stateDirectory: directory,
                sensor: FakeSensor(accelerometer: displayAccelerometer),
                baseSensor: FakeSensor(accelerometer: baseAccelerometer)
            )
            try body(rig)
        }
    }

    /// The text of one sensor's report, as `status` writes it.
    private func json(_ sensor: StatusReport.Sensor) -> String {
        var writer = JSONWriter()
        sensor.write(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func theReadingIsTheLastSampleBeforeTheMatrix() throws {
        try withTurnedSensors { rig in
            rig.request(#"{"id":1,"method":"begin"}"#, from: ClientID(1))
            // The display raw reads x = 9.5 (its matrix turns it to y = 9.5); the base raw reads y = -9.7.
            rig.engine.take(Sample(time: 1, x: 0, y: 9.5, z: 0.25), from: .display)
            rig.engine.take(Sample(time: 1, x: -9.7, y: 0, z: 0.5), from: .base)
            let (display, base) = DaemonStatus.sensorReports(of: rig.engine)
            #expect(display.reading == [9.5, 0, 0.25], "\(json(display))")
            #expect(base?.reading == [0, -9.7, 0.5], "\(base.map(json) ?? "no base")")
            #expect(json(display).contains(#""reading":[9.5,"#), "\(json(display))")
            // The next sample replaces it.
            rig.engine.take(Sample(time: 2, x: 0, y: 0, z: -9.81), from: .display)
            #expect(DaemonStatus.sensorReports(of: rig.engine).display.reading == [0, 0, -9.81])
        }
    }

    @Test func nothingWhileNobodyGenerates() throws {
        try withTurnedSensors { rig in
            var (display, base) = DaemonStatus.sensorReports(of: rig.engine)
            #expect(display.reading == nil && base?.reading == nil)
            #expect(!json(display).contains("reading"), "\(json(display))")
            rig.request(#"{"id":1,"method":"begin"}"#, from: ClientID(1))
            // Begun, no sample yet.
            #expect(DaemonStatus.sensorReports(of: rig.engine).display.reading == nil)
            rig.engine.take(Sample(time: 1, x: 0, y: 9.5, z: 0), from: .display)
            #expect(DaemonStatus.sensorReports(of: rig.engine).display.reading != nil)
            rig.request(#"{"id":2,"method":"end"}"#, from: ClientID(1))
            (display, base) = DaemonStatus.sensorReports(of: rig.engine)
            #expect(display.reading == nil, "\(json(display))")
            // Begun again: the reading of the earlier capture is not shown again.
            rig.request(#"{"id":3,"method":"begin"}"#, from: ClientID(1))
            #expect(DaemonStatus.sensorReports(of: rig.engine).display.reading == nil)
        }
    }

    /// Two rows along the same axis (a hand-written mistake): no inverse, so no reading.
    @Test func nothingForAMatrixThatCannotBeInverted() throws {
        try withTurnedSensors(display: "1, 0, 0; 1, 0, 0; 0, 0, 1") { rig in
            rig.request(#"{"id":1,"method":"begin"}"#, from: ClientID(1))
            rig.engine.take(Sample(time: 1, x: 9.5, y: 0, z: 0), from: .display)
            #expect(DaemonStatus.sensorReports(of: rig.engine).display.reading == nil)
        }
    }
}
