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

/// The sensor's pace as the engine asks for it: idle once the device has been still for a second with its
/// orientation known, full at the first sample that moves.
@Suite struct EnginePaceTests {
    let client = ClientID(1)

    @Test func stillForASecondIsIdleAndTheFirstSampleOfATurnIsFull() throws {
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(stateDirectory: directory)
            rig.request(#"{"id":1,"method":"begin"}"#, from: client)
            rig.hold(EngineRig.upright, for: 0.9)
            #expect(rig.sensor.paces.isEmpty, "not yet settled: \(rig.sensor.paces)")
            rig.hold(EngineRig.upright, for: 0.5)
            #expect(rig.sensor.paces == [.idle])
            #expect(rig.engine.state.device == .landscapeLeft)

            rig.hold(EngineRig.leftUp, for: 0.02)
            #expect(rig.sensor.paces == [.idle, .full], "the first sample of the turn")
            rig.hold(EngineRig.leftUp, for: 2)
            #expect(rig.engine.state.device == .portrait)
            #expect(rig.sensor.paces == [.idle, .full, .idle], "settled again")
        }
    }

    @Test func aSensorStartedAgainStartsFullAndSettlesAnew() throws {
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(stateDirectory: directory)
            rig.beginUpright(client)
            #expect(rig.sensor.pace == .idle)
            rig.request(#"{"id":2,"method":"end"}"#, from: client)
            rig.request(#"{"id":3,"method":"begin"}"#, from: client)
            #expect(rig.sensor.pace == .full, "a start is at the full pace")
            rig.hold(EngineRig.upright, for: 0.5)
            #expect(rig.sensor.pace == .full, "the classifier started afresh: not settled yet")
            rig.hold(EngineRig.upright, for: 1)
            #expect(rig.sensor.pace == .idle)
        }
    }

    /// A convertible's base sensor follows the display's pace, so that a machine at rest is not woken by its base.
    @Test func theBaseSensorFollowsTheDisplaysPace() throws {
        try withTemporaryDirectory { directory in
            let base = FakeSensor(accelerometer: FakeSensor.baseAccelerometer)
            let rig = try EngineRig(stateDirectory: directory, baseSensor: base)
            rig.request(#"{"id":1,"method":"begin"}"#, from: client)
            rig.hold(EngineRig.upright, for: 1.5)
            #expect(rig.sensor.paces == [.idle])
            #expect(base.paces == [.idle])
            rig.hold(EngineRig.leftUp, for: 0.02)
            #expect(base.paces == [.idle, .full], "the first sample of the turn wakes the base too")
        }
    }

    /// A shake keeps the direction but not |a|: the classifier's motion weight drops and the pace is full.
    @Test func aShakeInPlaceIsMotion() {
        var tracker = PaceTracker()
        var classifier = OrientationClassifier()
        var time = 0.0
        var pace = SensorPace.full
        func feed(_ g: Double) {
            time += 0.02
            let sample = Sample(time: time, x: 0, y: -g, z: 0)
            let before = classifier.filteredAcceleration
            _ = classifier.update(sample)
            pace = tracker.pace(after: sample, before: before, classifier: classifier)
        }
        for _ in 0..<100 { feed(9.81) }
        #expect(pace == .idle)
        for step in 0..<10 { feed(step.isMultiple(of: 2) ? 16 : 4) }
        #expect(classifier.stillness < PaceTracker.stillWeight)
        #expect(pace == .full)
    }

    /// Before the first classification the device orientation is unknown: the pace stays full.
    @Test func anUnknownOrientationIsNeverIdle() {
        var tracker = PaceTracker()
        let classifier = OrientationClassifier()
        let sample = Sample(time: 5, x: 0, y: -9.81, z: 0)
        for _ in 0..<3 {
            #expect(tracker.pace(after: sample, before: sample.acceleration, classifier: classifier) == .full)
        }
    }
}
