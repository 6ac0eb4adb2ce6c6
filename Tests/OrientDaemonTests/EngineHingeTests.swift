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
import Logging
import OrientProtocol
import OrientationCore
import SensorDevices
import Testing

@testable import OrientDaemon

/// Tablet mode from the hinge of a two-accelerometer convertible, through the engine with fake sensors: the angle
/// in the state, the decision and its thresholds, the order of sources (switch over hinge), nobody generating, and
/// the base sensor going away.
@Suite struct EngineHingeTests {
    let client = ClientID(1)

    private func rig(_ directory: String, autoRotate: DaemonSettings.AutoRotate = .tabletMode) throws -> EngineRig {
        var settings = DaemonSettings()
        settings.autoRotate = autoRotate
        return try EngineRig(
            settings: settings,
            stateDirectory: directory,
            baseSensor: FakeSensor(accelerometer: FakeSensor.baseAccelerometer)
        )
    }

    /// Runs `body` with a rig whose engine has a base sensor, `AutoRotate=tablet-mode`, and one generating client.
    private func withGeneratingConvertible(_ body: (EngineRig) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let rig = try rig(directory)
            rig.request(#"{"id":1,"method":"begin"}"#, from: client)
            try body(rig)
        }
    }

    @Test func theHingeAngleAndTabletModeAreInTheState() throws {
        try withGeneratingConvertible { rig in
            #expect(
                (rig.engine.sensors.base as? FakeSensor)?.status == .active,
                "the base sensor starts with the display one"
            )
            for (angle, tablet) in [(90.0, false), (187.5, false), (270.0, true), (330.0, true), (180.0, true)] {
                rig.holdHinge(at: angle)
                let state = rig.engine.state
                #expect(state.hinge == angle, "at \(angle)°")
                #expect(state.tabletMode == tablet, "at \(angle)°: 180° is inside the band, the decision holds")
                #expect(state.tabletModeSource == .hinge)
            }
            rig.holdHinge(at: 120, turn: 40)
            #expect(rig.engine.state.hinge == 120, "tilting the whole machine changes nothing")
            #expect(rig.engine.state.tabletMode == false)
        }
    }

    @Test func foldedFlatAgainstTheBaseLooksClosedAndTheLastDecisionHolds() throws {
        try withGeneratingConvertible { rig in
            rig.holdHinge(at: 300)
            #expect(rig.engine.state.tabletMode == true)
            rig.holdHinge(at: 359.9)
            #expect(rig.engine.state.hinge == nil, "closed and folded look alike: unreliable")
            #expect(rig.engine.state.tabletMode == true)
            rig.holdHinge(at: 100)
            rig.holdHinge(at: 0.1)
            #expect(rig.engine.state.hinge == nil)
            #expect(rig.engine.state.tabletMode == false)
        }
    }

    @Test func laptopModeHoldsTheNaturalOrientationWhileTheLidTurns() throws {
        try withGeneratingConvertible { rig in
            rig.holdHinge(at: 100)
            #expect(rig.engine.state.tabletMode == false)
            #expect(rig.engine.state.interface == .landscapeRight)
            _ = rig.takeEvents()
            // The whole machine on its side: the device orientation follows, the interface does not.
            rig.holdHinge(at: 110, turn: 80)
            let events = rig.takeEvents()
            #expect(!events.contains { $0.name == .interface }, "\(events.map(\.name))")
            #expect(rig.engine.state.interface == .landscapeRight)

            rig.holdHinge(at: 300)
            let folded = rig.takeEvents()
            #expect(folded.first?.name == .tabletMode)
            #expect(folded.first?.previousTabletMode == false)
            #expect(folded.first?.state.tabletModeSource == .hinge)
        }
    }

    @Test func aHingeAngleOfItsOwnIsNoEvent() throws {
        try withGeneratingConvertible { rig in
            rig.holdHinge(at: 100)
            _ = rig.takeEvents()
            rig.holdHinge(at: 120)
            rig.holdHinge(at: 140)
            #expect(rig.takeEvents().isEmpty)
            #expect(rig.engine.state.hinge == 140)
        }
    }

    @Test func theSwitchWinsOverTheHinge() throws {
        try withGeneratingConvertible { rig in
            rig.holdHinge(at: 300)
            #expect(rig.engine.state.tabletModeSource == .hinge)
            rig.engine.switchChanged(to: false)
            #expect(rig.engine.state.tabletMode == false)
            #expect(rig.engine.state.tabletModeSource == .switch)
            rig.holdHinge(at: 310)
            #expect(rig.engine.state.tabletMode == false, "the switch still says laptop")
            rig.engine.switchChanged(to: nil)
            #expect(rig.engine.state.tabletMode == true, "the switch went: the hinge decides again")
            #expect(rig.engine.state.tabletModeSource == .hinge)
        }
    }

    @Test func nobodyGeneratingTheHingeIsNullAndTabletModeStays() throws {
        try withGeneratingConvertible { rig in
            rig.holdHinge(at: 300)
            rig.request(#"{"id":2,"method":"end"}"#, from: client)
            #expect(
                (rig.engine.sensors.base as? FakeSensor)?.status == .stopped,
                "the base sensor stops with the display one"
            )
            #expect(rig.engine.state.hinge == nil)
            #expect(rig.engine.state.tabletMode == true)
            #expect(rig.engine.state.tabletModeSource == .hinge)
        }
    }

    @Test func aBaseSensorGoneTakesItsDecisionAndOneThatReturnsDecidesAgain() throws {
        try withGeneratingConvertible { rig in
            rig.holdHinge(at: 300)
            _ = rig.takeEvents()
            let base = try #require(rig.engine.sensors.base as? FakeSensor)
            base.report(.absent)
            let events = rig.takeEvents()
            #expect(events.map(\.name) == [.tabletMode])
            #expect(events.first?.previousTabletMode == true)
            #expect(rig.engine.state.tabletMode == nil, "no switch, no hinge: nothing tells")
            #expect(rig.engine.state.hinge == nil)
            rig.holdHinge(at: 100)
            #expect(rig.engine.state.tabletMode == nil, "samples from an absent base count for nothing")
            base.report(.active)
            rig.holdHinge(at: 100)
            #expect(rig.engine.state.tabletMode == false)
        }
    }

    @Test func aBaseStoppedWhileFailedCountsAgainOnlyWhenItsRetryIsDue() throws {
        // Counted as a hinge at once, it would make the virtual switch's claim start it again at once, only to fail.
        try withGeneratingConvertible { rig in
            #expect(rig.engine.tabletModeDecision.hinge)
            let base = try #require(rig.engine.sensors.base as? FakeSensor)
            base.report(.failed)
            #expect(!rig.engine.tabletModeDecision.hinge, "a failed base is no hinge")
            base.awaitsRetry = true
            rig.request(#"{"id":2,"method":"end"}"#, from: client)
            #expect(base.status == .stopped)
            #expect(!rig.engine.tabletModeDecision.hinge, "stopped, it waits for its retry")
            base.retryBecameDue()
            #expect(rig.engine.tabletModeDecision.hinge, "its retry due, it counts again")
        }
    }

    @Test func implausibleBaseReadingsAreIgnoredAndSaidOnce() throws {
        try withTemporaryDirectory { directory in
            let log = RecordingLog()
            var settings = DaemonSettings()
            settings.autoRotate = .tabletMode
            let rig = try EngineRig(
                settings: settings,
                stateDirectory: directory,
                baseSensor: FakeSensor(accelerometer: FakeSensor.baseAccelerometer),
                log: log
            )
            rig.request(#"{"id":1,"method":"begin"}"#, from: client)
            for index in 0..<400 {
                let time = Double(index) * 0.02
                rig.engine.handleBase(Sample(time: time, x: 0, y: 0, z: 300))
                rig.engine.handle(Sample(time: time, x: 0, y: -9.81, z: 0))
            }
            #expect(rig.engine.state.hinge == nil)
            #expect(rig.engine.state.tabletMode == nil)
            #expect(rig.engine.state.interface == .landscapeRight, "the orientation does not depend on the base")
            #expect(
                log.records(atLeast: .warning).filter { $0.message.contains("base accelerometer reads implausible") }
                    .count == 1
            )
        }
    }
}

/// `tablet-mode on|off|auto`: a manual tablet mode over the switch and the hinge, for controllers, saved with the
/// lock.
@Suite struct EngineManualTabletModeTests {
    let client = ClientID(1)

    @Test func aManualSettingWinsOverTheSwitchAndTheHingeAndAutoGivesItBack() throws {
        try withTemporaryDirectory { directory in
            var settings = DaemonSettings()
            settings.autoRotate = .tabletMode
            let rig = try EngineRig(
                settings: settings,
                stateDirectory: directory,
                baseSensor: FakeSensor(accelerometer: FakeSensor.baseAccelerometer)
            )
            rig.request(#"{"id":1,"method":"begin"}"#, from: client)
            rig.holdHinge(at: 100)
            rig.engine.switchChanged(to: false)
            _ = rig.takeEvents()

            let on = rig.request(#"{"id":2,"method":"tablet-mode","params":{"mode":"on"}}"#, from: client)
            #expect(on.reply.contains(#""tablet_mode":true"#) && on.reply.contains(#""tablet_mode_source":"manual""#))
            #expect(on.events.first?.name == .tabletMode)
            #expect(on.events.first?.previousTabletMode == false)
            rig.engine.switchChanged(to: false)
            rig.holdHinge(at: 90)
            #expect(rig.engine.state.tabletMode == true, "neither the switch nor the hinge overrides it")

            let off = rig.request(#"{"id":3,"method":"tablet-mode","params":{"mode":"off"}}"#, from: client)
            #expect(off.reply.contains(#""tablet_mode":false"#))
            let again = rig.request(#"{"id":4,"method":"tablet-mode","params":{"mode":"off"}}"#, from: client)
            #expect(again.events.isEmpty, "the same setting again is no change")

            rig.engine.switchChanged(to: nil)
            rig.holdHinge(at: 300)
            #expect(rig.engine.state.tabletModeSource == .manual)
            let auto = rig.request(#"{"id":5,"method":"tablet-mode","params":{"mode":"auto"}}"#, from: client)
            #expect(auto.reply.contains(#""tablet_mode_source":"hinge""#), "\(auto.reply)")
            #expect(rig.engine.state.tabletMode == true)
        }
    }

    @Test func onlyControllersMaySetIt() throws {
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(stateDirectory: directory)
            let refused = rig.request(
                #"{"id":1,"method":"tablet-mode","params":{"mode":"on"}}"#,
                from: client,
                peer: EngineRig.nobody
            )
            #expect(refused.reply.contains(#""code":"permission-denied""#), "\(refused.reply)")
            #expect(rig.engine.state.tabletMode == nil)
            #expect(readText(directory + "/state.json") == nil, "nothing saved")
        }
    }

    @Test func itIsSavedWithTheLockAndRestored() throws {
        try withTemporaryDirectory { directory in
            var settings = DaemonSettings()
            settings.autoRotate = .tabletMode
            do {
                let rig = try EngineRig(settings: settings, stateDirectory: directory)
                rig.request(#"{"id":1,"method":"lock","params":{"orientation":"portrait"}}"#, from: client)
                rig.request(#"{"id":2,"method":"tablet-mode","params":{"mode":"off"}}"#, from: client)
                rig.request(#"{"id":3,"method":"unlock"}"#, from: client)
            }
            let restarted = try EngineRig(settings: settings, stateDirectory: directory)
            #expect(restarted.engine.state.tabletMode == false, "the unlock kept the tablet mode in the file")
            #expect(restarted.engine.state.tabletModeSource == .manual)
            #expect(restarted.engine.state.lock == nil)
            #expect(!restarted.engine.followsDevice, "laptop mode holds the interface from the start")
        }
    }

    @Test func theVirtualSwitchsClaimKeepsTheSensorsRunningWhileTheHingeCounts() throws {
        try withTemporaryDirectory { directory in
            let log = RecordingLog()
            let rig = try EngineRig(
                stateDirectory: directory,
                baseSensor: FakeSensor(accelerometer: FakeSensor.baseAccelerometer),
                virtualSwitch: .auto,
                log: log
            )
            let base = try #require(rig.engine.sensors.base as? FakeSensor)
            rig.engine.start(switchPosition: nil)
            #expect(rig.engine.virtualSwitchKeepsSensorsOn, "a base whose hinge counts, no real switch")
            #expect(rig.engine.isGenerating && rig.engine.generationTotal == 1)
            #expect(base.status == .active, "the hinge is read with no client generating")
            #expect(rig.engine.generatingConnections == 1)

            base.awaitsRetry = true
            base.report(.failed)
            #expect(rig.engine.virtualSwitchKeepsSensorsOn, "a change inside a sensor's report waits for the next turn")
            rig.scheduler.runNextTurns()
            #expect(!rig.engine.virtualSwitchKeepsSensorsOn, "a failed base is no hinge: the claim ends")
            #expect(!rig.engine.isGenerating)

            base.retryBecameDue()
            rig.scheduler.runNextTurns()
            #expect(rig.engine.virtualSwitchKeepsSensorsOn, "its retry due, it counts again")
            rig.engine.switchChanged(to: false)
            #expect(!rig.engine.virtualSwitchKeepsSensorsOn, "a real switch: no virtual one, no claim")
            #expect(!rig.engine.isGenerating)
            #expect(
                log.records(atLeast: .info).filter {
                    $0.message.contains("keeps the sensors running to read the hinge")
                }.count == 2,
                "said each time the claim begins"
            )
        }
    }
}
