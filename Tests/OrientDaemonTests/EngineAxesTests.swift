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
import OrientationCore
import SensorDevices
import Testing

@testable import OrientDaemon

/// The axes' self-check in the engine: what it finds is kept for `status` (once), nothing with the right axes.
@Suite struct EngineAxesTests {
    private func withConvertible(_ body: (EngineRig) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(
                settings: DaemonSettings(),
                stateDirectory: directory,
                baseSensor: FakeSensor(accelerometer: FakeSensor.baseAccelerometer)
            )
            rig.request(#"{"id":1,"method":"begin"}"#, from: ClientID(1))
            try body(rig)
        }
    }

    @Test func theRightAxesGiveNothing() throws {
        try withConvertible { rig in
            for angle in [110.0, 95, 130, 180, 300] { rig.holdHinge(at: angle, for: 15) }
            rig.holdHinge(at: 120, turn: 40, for: 15)
            #expect(rig.engine.axesFindings.isEmpty, "\(rig.engine.axesFindings.map(\.text))")
        }
    }

    /// The display read turned a quarter (a wrong matrix): its hinge-axis reading disagrees with the base's, and it
    /// reads sideways over a flat base; each said once, however long it lasts.
    @Test func aDisplayTurnedAQuarterIsFoundOnce() throws {
        try withConvertible { rig in
            let g = 9.81
            var time = 1000.0
            for _ in 0..<(60 * 50) {
                time += 0.02
                rig.engine.handleBase(Sample(time: time, x: 0, y: 0, z: -g))
                rig.engine.handle(Sample(time: time + 0.001, x: g * 0.94, y: 0, z: g * 0.34))
            }
            let findings = rig.engine.axesFindings
            #expect(!findings.isEmpty)
            #expect(findings.allSatisfy { $0.sensor == .display }, "\(findings.map(\.text))")
            #expect(Set(findings.map(\.kind)).count == findings.count, "once per kind")
            #expect(findings.allSatisfy { $0.text.contains("orientd calibrate") })
        }
    }

    /// A base entry that calibrate wrote before it used systemd's frame, on a laptop at 110°: the base reads keyboard
    /// down under the upright display; the finding names the base and says to calibrate again.
    @Test func anOldCalibrateBaseEntryIsFoundInUse() throws {
        var accelerometer = FakeSensor.baseAccelerometer
        accelerometer.oldFrameEntry = "sensor:modalias:acpi:KIOX010A*:dmi:*:svnAcme:pnBook11:*"
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(
                settings: DaemonSettings(),
                stateDirectory: directory,
                baseSensor: FakeSensor(accelerometer: accelerometer)
            )
            rig.request(#"{"id":1,"method":"begin"}"#, from: ClientID(1))
            let g = 9.81
            var time = 1000.0
            for _ in 0..<(20 * 50) {
                time += 0.02
                rig.engine.handleBase(Sample(time: time, x: 0, y: 0, z: g))
                rig.engine.handle(Sample(time: time + 0.001, x: 0, y: -g * 0.9397, z: g * 0.3420))
            }
            let findings = rig.engine.axesFindings.filter { $0.kind == .oldBaseFrame }
            #expect(findings.count == 1, "\(rig.engine.axesFindings.map(\.text))")
            #expect(findings.first?.sensor == .base)
            #expect(findings.first?.text.contains("orientd calibrate") == true)
        }
    }
}
