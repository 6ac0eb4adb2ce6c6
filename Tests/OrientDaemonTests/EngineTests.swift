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

#if canImport(Glibc)
import Glibc
#endif

/// The engine through a fake sensor: generation, the lock on disk, constraints, the events of each change and
/// their order and seq, a reloaded configuration, tablet mode, and a client closed while events are sent.
@Suite struct EngineTests {
    let first = ClientID(1)
    let second = ClientID(2)

    @Test func theFirstBeginStartsTheSensorAndTheLastEndStopsIt() throws {
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(stateDirectory: directory)
            #expect(rig.engine.state.sensor == .stopped)

            let begun = rig.request(#"{"id":1,"method":"begin"}"#, from: first)
            #expect(begun.reply.contains(#""count":1"#), "\(begun.reply)")
            #expect(begun.events.map(\.name) == [.sensor])
            #expect(begun.events.first?.previous == "stopped")
            #expect(begun.events.first?.state.sensor == .active)
            #expect(rig.sensor.starts == 1)

            rig.request(#"{"id":2,"method":"begin"}"#, from: second)
            #expect(rig.sensor.starts == 1, "a second generating connection does not start it again")
            rig.hold(EngineRig.upright)
            let classified = rig.takeEvents()
            #expect(classified.map(\.name) == [.device, .interface])
            #expect(classified.first?.state.device == .landscapeLeft)

            rig.request(#"{"id":3,"method":"end"}"#, from: first)
            #expect(rig.sensor.stops == 0, "the other connection still generates")
            let ended = rig.request(#"{"id":4,"method":"end"}"#, from: second)
            #expect(rig.sensor.stops == 1)
            #expect(ended.events.isEmpty, "nobody generates: nobody receives the stop")
            #expect(rig.engine.state.sensor == .stopped)
            #expect(rig.engine.state.device == .unknown)
            #expect(rig.engine.state.interface == .landscapeRight, "the interface keeps its last value")

            let refused = rig.request(#"{"id":5,"method":"end"}"#, from: second)
            #expect(refused.reply.contains("not-generating"), "\(refused.reply)")
        }
    }

    /// The daemon's own claim (the virtual switch reading the hinge) is a count like a client's (PROTOCOL.md): it
    /// runs the sensors and `generating` says so; a client that begins meanwhile changes no sensor state, and the
    /// sensors stop only when the claim ends too.
    @Test func theDaemonsOwnClaimCountsLikeAClients() throws {
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(stateDirectory: directory)
            let listener = rig.engine.newClientID()
            let client = rig.engine.newClientID()
            #expect(listener != client)
            _ = rig.engine.begin(listener)
            rig.hold(EngineRig.upright)
            // (step, generating, device, sensor, counted connections, total)
            let steps: [(String, Bool, DeviceOrientation, SensorState, Int, Int)] = [
                ("only the daemon", true, .landscapeLeft, .active, 1, 1),
                ("a client begins", true, .landscapeLeft, .active, 2, 2),
                ("the client ends", true, .landscapeLeft, .active, 1, 1),
            ]
            for (index, (step, generating, device, sensor, connections, total)) in steps.enumerated() {
                switch index {
                case 1:
                    let begun = rig.request(#"{"id":1,"method":"begin"}"#, from: client)
                    #expect(!begun.events.contains { $0.name == .sensor }, "the sensor was running already")
                case 2: rig.request(#"{"id":2,"method":"end"}"#, from: client)
                default: break
                }
                let state = rig.engine.state
                #expect(state.generating == generating, "\(step)")
                #expect(state.device == device, "\(step)")
                #expect(state.sensor == sensor, "\(step)")
                #expect(rig.engine.generatingConnections == connections, "\(step)")
                #expect(rig.engine.generationTotal == total, "\(step)")
            }
            #expect(rig.sensor.starts == 1 && rig.sensor.stops == 0, "the sensor ran all along")
            _ = try rig.engine.end(listener)
            #expect(rig.sensor.stops == 1 && rig.engine.state.sensor == .stopped && !rig.engine.state.generating)
        }
    }

    @Test func aClosedConnectionTakesItsCountAndConstraintAway() throws {
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(stateDirectory: directory)
            rig.request(#"{"id":1,"method":"begin"}"#, from: first)
            rig.request(#"{"id":2,"method":"begin"}"#, from: second)
            rig.request(#"{"id":3,"method":"constrain","params":{"mask":["portrait"]}}"#, from: second)
            #expect(rig.engine.state.allowed == .portrait)
            rig.engine.clientClosed(second)
            let events = rig.takeEvents()
            #expect(events.map(\.name) == [.allowed])
            #expect(events.first?.state.allowed == .all)
            rig.engine.clientClosed(first)
            #expect(rig.sensor.stops == 1)
            #expect(rig.engine.generationTotal == 0)
        }
    }

    @Test func aLockIsSavedBeforeItApplies() throws {
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(stateDirectory: directory)
            rig.request(#"{"id":1,"method":"begin"}"#, from: first)
            _ = rig.takeEvents()
            let locked = rig.request(#"{"id":2,"method":"lock","params":{"orientation":"portrait"}}"#, from: first)
            #expect(locked.reply.contains(#""lock":["portrait"]"#), "\(locked.reply)")
            #expect(locked.events.map(\.name) == [.allowed, .interface])
            #expect(locked.events.last?.previous == "unknown")
            #expect(StateStore(directory: directory, logger: RecordingLog().logger).load().lock == .portrait)

            let again = rig.request(#"{"id":3,"method":"lock","params":{"orientation":"portrait"}}"#, from: first)
            #expect(again.events.isEmpty, "locking what is locked changes nothing")
            #expect(rig.engine.state.seq == locked.events.last?.state.seq)

            let refused = rig.request(#"{"id":4,"method":"lock"}"#, from: first, peer: EngineRig.nobody)
            #expect(refused.reply.contains("permission-denied"), "\(refused.reply)")

            // A second engine on the same directory (the daemon restarted) starts locked.
            let restarted = try EngineRig(stateDirectory: directory)
            #expect(restarted.engine.state.lock == .portrait)
            #expect(restarted.engine.state.interface == .portrait)
        }
    }

    @Test func aLockThatCannotBeSavedChangesNothing() throws {
        try withTemporaryDirectory { directory in
            // The state directory is a path under a regular file: every save fails (ENOTDIR), even for root.
            let file = directory + "/not-a-directory"
            try #require(creat(file, 0o644) >= 0)
            let log = RecordingLog()
            let rig = try EngineRig(stateDirectory: file + "/state", log: log)
            rig.request(#"{"id":1,"method":"begin"}"#, from: first)
            _ = rig.takeEvents()
            let before = rig.engine.state

            let failed = rig.request(#"{"id":2,"method":"lock","params":{"orientation":"portrait"}}"#, from: first)
            #expect(failed.reply.contains("state-not-saved"), "\(failed.reply)")
            #expect(failed.events.isEmpty)
            #expect(rig.engine.state == before)
            #expect(log.records(atLeast: .error).contains { $0.message == "the lock could not be saved" })
        }
    }

    @Test func aConstraintNarrowsTheAllowedSetAndMovesTheInterface() throws {
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(stateDirectory: directory)
            rig.beginUpright(first)
            let constrained = rig.request(
                #"{"id":2,"method":"constrain","params":{"mask":["portrait","portrait-upside-down"]}}"#,
                from: first
            )
            #expect(constrained.events.map(\.name) == [.allowed, .interface])
            #expect(constrained.events.last?.previous == "landscape-right")
            #expect(constrained.events.last?.state.interface == .portrait)
            #expect(Set(constrained.events.map(\.state.seq)).count == 1)

            // Another connection's constraint that leaves nothing allowed with this one is refused.
            let empty = rig.request(#"{"id":3,"method":"constrain","params":{"mask":["landscape"]}}"#, from: second)
            #expect(empty.reply.contains("empty-mask"), "\(empty.reply)")
            #expect(empty.events.isEmpty)
            #expect(rig.engine.state.allowed == [.portrait, .portraitUpsideDown])
        }
    }

    @Test func theEventsOfOneChangeComeInOrderWithOneSeq() throws {
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(stateDirectory: directory)
            rig.request(#"{"id":1,"method":"begin"}"#, from: first)
            rig.hold(EngineRig.upright)
            let seq = rig.engine.state.seq
            _ = rig.takeEvents()

            // The device goes: the sensor, and with it the device orientation, in one change.
            rig.sensor.report(.absent)
            let gone = rig.takeEvents()
            #expect(gone.map(\.name) == [.sensor, .device])
            #expect(gone.map(\.previous) == ["active", "landscape-left"])
            #expect(gone.allSatisfy { $0.state.seq == seq + 1 && $0.state.sensor == .absent })

            rig.sensor.report(.active)
            rig.hold(EngineRig.leftUp)
            let back = rig.takeEvents()
            #expect(back.map(\.name) == [.sensor, .device, .interface])
            #expect(back.map(\.state.seq) == [seq + 2, seq + 3, seq + 3])
            #expect(back.last?.state.interface == .portrait)
        }
    }

    @Test func aReloadedSupportedSetIsAnAllowedEvent() throws {
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(stateDirectory: directory)
            rig.beginUpright(first)
            var settings = DaemonSettings()
            settings.supported = .landscape
            try rig.engine.reconfigure(settings)
            #expect(rig.takeEvents().map(\.name) == [.allowed])
            #expect(rig.engine.state.allowed == .landscape)

            // One that would allow nothing with the lock in force is refused, and nothing changes.
            rig.request(#"{"id":2,"method":"lock","params":{"orientation":"landscape-right"}}"#, from: first)
            _ = rig.takeEvents()
            settings.supported = .portrait
            #expect(throws: PolicyError.self) { try rig.engine.reconfigure(settings) }
            #expect(rig.takeEvents().isEmpty)
            #expect(rig.engine.state.allowed == .landscapeRight)
        }
    }

    /// A new `Natural=` keeps the interface orientation but not the rotation: an `interface` event carries it.
    @Test func aReloadedNaturalOrientationIsAnInterfaceEvent() throws {
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(stateDirectory: directory)
            rig.request(#"{"id":1,"method":"begin"}"#, from: first)
            rig.request(#"{"id":2,"method":"lock","params":{"orientation":"portrait"}}"#, from: first)
            let before = rig.engine.state
            #expect(before.interface == .portrait && before.rotation != .degrees0)

            var settings = DaemonSettings()
            settings.classifier.natural = .portrait
            try rig.engine.reconfigure(settings)
            let events = rig.takeEvents()
            #expect(events.map(\.name) == [.interface])
            #expect(events.first?.previous == "portrait")
            #expect(events.first?.state.interface == .portrait)
            #expect(events.first?.state.rotation == .degrees0, "portrait is the panel's natural orientation now")
            #expect(events.first?.state.seq == before.seq + 1)
        }
    }

    @Test func aTabletModeChangeIsItsOwnEventBeforeTheInterfaceItMoves() throws {
        try withTemporaryDirectory { directory in
            var settings = DaemonSettings()
            settings.autoRotate = .tabletMode
            let rig = try EngineRig(settings: settings, stateDirectory: directory)
            rig.request(#"{"id":1,"method":"begin"}"#, from: first)
            rig.hold(EngineRig.leftUp)
            _ = rig.takeEvents()
            #expect(rig.engine.state.interface == .portrait, "no switch: rotating as with always")

            rig.engine.switchChanged(to: false)
            let laptop = rig.takeEvents()
            #expect(laptop.map(\.name) == [.tabletMode, .interface])
            #expect(laptop.first?.previousTabletMode == nil)
            #expect(laptop.first?.state.tabletMode == false)
            #expect(laptop.last?.state.interface == .landscapeRight, "laptop mode: the natural orientation")
            #expect(Set(laptop.map(\.state.seq)).count == 1)

            rig.engine.switchChanged(to: true)
            let tablet = rig.takeEvents()
            #expect(tablet.map(\.name) == [.tabletMode, .interface])
            #expect(tablet.first?.previousTabletMode == false)
            #expect(tablet.last?.state.interface == .portrait)

            rig.engine.switchChanged(to: true)
            #expect(rig.takeEvents().isEmpty, "the same value again is no change")
            let seq = rig.engine.state.seq
            rig.engine.switchChanged(to: nil)
            let gone = rig.takeEvents()
            #expect(gone.map(\.name) == [.tabletMode], "the switch went; the interface still follows")
            #expect(gone.first?.previousTabletMode == true)
            #expect(gone.first?.state.seq == seq + 1)
        }
    }

    /// A connection dropped while the events are sent (over its output bound) is taken away after the send: the
    /// events of the change being sent all go out first, then those of its own change, with the next seq.
    @Test func aClientClosedWhileEventsAreSentIsTakenAwayAfterwards() throws {
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(stateDirectory: directory)
            rig.request(#"{"id":1,"method":"begin"}"#, from: first)
            rig.request(#"{"id":2,"method":"begin"}"#, from: second)
            rig.hold(EngineRig.upright)
            rig.request(#"{"id":3,"method":"constrain","params":{"mask":["landscape"]}}"#, from: second)
            _ = rig.takeEvents()
            var dropped = false
            rig.onEvent = { [unowned rig] _ in
                guard !dropped else { return }
                dropped = true
                rig.engine.clientClosed(self.second)
            }
            rig.hold(EngineRig.leftUp)
            let events = rig.takeEvents()
            #expect(events.map(\.name) == [.device, .allowed, .interface], "\(events.map(\.name))")
            let seq = events.first?.state.seq ?? 0
            #expect(events.map(\.state.seq) == [seq, seq + 1, seq + 1])
            #expect(events.first?.state.interface == .landscapeRight, "held by the constraint while it was there")
            #expect(events.last?.state.interface == .portrait)
            #expect(!rig.engine.isGenerating(second))
        }
    }

    /// With no accelerometer the sensor is `absent` even while nobody generates; one found makes it `stopped`.
    @Test func aMachineWithoutAnAccelerometerIsAbsentWhileStopped() throws {
        try withTemporaryDirectory { directory in
            let sensor = FakeSensor(accelerometer: nil)
            let rig = try EngineRig(stateDirectory: directory, sensor: sensor)
            #expect(rig.engine.state.sensor == .absent)
            #expect(!rig.engine.hasAccelerometer)

            let begun = rig.request(#"{"id":1,"method":"begin"}"#, from: first)
            #expect(begun.events.isEmpty, "absent before, absent now: no sensor event")
            #expect(rig.engine.state.sensor == .absent)
            rig.request(#"{"id":2,"method":"end"}"#, from: first)
            #expect(rig.engine.state.sensor == .absent)

            sensor.accelerometer = FakeSensor.displayAccelerometer
            sensor.refreshDiscovery()
            #expect(rig.engine.state.sensor == .stopped)
            #expect(rig.engine.hasAccelerometer)
            let started = rig.request(#"{"id":3,"method":"begin"}"#, from: first)
            #expect(started.events.map(\.previous) == ["stopped"])
        }
    }

    /// A sensor replaced while someone generates (new sensor options on reload) is discovered stopped, then
    /// started: clients see no change.
    @Test func aDiscoveryWhileGeneratingChangesNothing() throws {
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(stateDirectory: directory)
            rig.beginUpright(first)
            let before = rig.engine.state
            var settings = DaemonSettings()
            settings.sensor.rate = 50
            try rig.engine.reconfigure(settings)
            let replacement = try #require(rig.sensorFactory.made.last { $0.location == .display })
            #expect(replacement !== rig.sensor && rig.sensor.isClosed, "the old sensor is closed and replaced")
            #expect(replacement.status == .active, "the new one started, as someone generates")
            #expect(rig.takeEvents().isEmpty)
            #expect(rig.engine.state == before)
        }
    }

    @Test func helloNamesTheAccelerometer() throws {
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(stateDirectory: directory)
            let hello = rig.request(#"{"id":1,"method":"hello"}"#, from: first)
            #expect(hello.reply.contains(#""device":"accel_3d""#), "\(hello.reply)")
            #expect(hello.reply.contains(#""status":"stopped""#), "\(hello.reply)")
        }
    }
}
