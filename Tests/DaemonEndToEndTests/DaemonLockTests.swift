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

import OrientdTestKit
import Testing

extension EmulatedDeviceTests {
    /// `lock`, `unlock` and `constrain` (PROTOCOL.md, ORIENTATION.md "Masks, lock and constraints"), by root, a
    /// controller; the device orientation keeps coming under a lock.
    @Suite struct DaemonLockTests {
        /// A daemon with a generating observer that has seen the first classification (normal pose), and a
        /// controller connection that does not generate.
        struct Setup {
            let fixture: AccelerometerFixture
            let testbed: Testbed
            let daemon: RunningDaemon
            let observer: DaemonConnection
            let controller: DaemonConnection
            var feed: AccelerometerFeed

            init() async throws {
                fixture = AccelerometerFixture()
                testbed = Testbed()
                try testbed.add(fixture.description)
                daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox())
                observer = try daemon.connect()
                controller = try daemon.connect()
                feed = AccelerometerFeed(fixture: fixture, testbed: testbed)
            }

            /// The observer begins and the normal pose is fed: interface landscape-right.
            mutating func startGenerating() async throws {
                _ = try await observer.call("begin")
                _ = try await observer.nextEvent()
                await daemon.waitForBufferEnable("1", fixture)
                try feed.hold(.normal)
                let change = try await observer.nextChange()
                #expect(change.last?.state?["interface"]?.string == "landscape-right", "\(change)")
            }

            /// Feeds a pose and returns the change it made at the observer.
            mutating func rotate(to posture: Posture) async throws -> [DaemonMessage] {
                try feed.hold(posture)
                return try await observer.nextChange(timeout: .seconds(10), "the change to \(posture)")
            }

            /// Requires that the observer has received nothing since its last change (a `get` round trip proves
            /// that nothing was sent before it), and returns the state.
            func expectNoEvents(sourceLocation: SourceLocation = #_sourceLocation) async throws -> DaemonJSON? {
                let state = try await observer.call("get")
                #expect(observer.inbox.isEmpty, "unexpected events: \(observer.inbox)", sourceLocation: sourceLocation)
                return state.state
            }
        }

        static let all = DaemonContract.interfaceOrder

        @Test func lockOrientationsAndMasks() async throws {
            var setup = try await Setup()
            let controller = setup.controller
            // Before any classification the interface orientation is unknown: nothing to lock.
            let current = try await controller.call("lock", "{}")
            #expect(current.errorCode == "invalid-orientation", "\(current)")
            #expect(try await controller.call("get").state?["lock"]?.isNull == true)
            try await setup.startGenerating()

            let portrait = try await controller.call("lock", #"{"orientation": "portrait"}"#)
            #expect(portrait.state?["lock"]?.strings == ["portrait"], "\(portrait)")
            #expect(portrait.state?["allowed"]?.strings == ["portrait"], "\(portrait)")
            #expect(portrait.state?["interface"]?.string == "portrait", "\(portrait)")
            #expect(portrait.state?["device"]?.string == "landscape-left", "\(portrait)")
            DaemonContract.expectTransform(portrait.state)
            var change = try await setup.observer.nextChange()
            #expect(change.map(\.event) == ["allowed", "interface"], "\(change)")
            #expect(change.last?.previous == "landscape-right", "\(change)")
            #expect(change.first?.seq == portrait.seq, "the reply and its events share seq: \(portrait) / \(change)")
            #expect(change.first?.state == portrait.state, "\(portrait) / \(change)")

            // A lock never hides the device orientation; the pose it keeps the screen from is suggested.
            change = try await setup.rotate(to: .bottomUp)
            #expect(change.map(\.event) == ["device", "suggestion"], "\(change)")
            #expect(change.first?.state?["device"]?.string == "landscape-right", "\(change)")
            #expect(change.first?.state?["interface"]?.string == "portrait", "\(change)")
            #expect(change.first?.state?["suggestion"]?.string == "landscape-left", "\(change)")

            // A mask as a list, normalised; the current interface orientation is still allowed, so it stays.
            let mask = try await controller.call("lock", #"{"mask": ["landscape-right", "portrait"]}"#)
            #expect(mask.state?["lock"]?.strings == ["portrait", "landscape-right"], "\(mask)")
            #expect(mask.state?["allowed"]?.strings == ["portrait", "landscape-right"], "\(mask)")
            #expect(mask.state?["interface"]?.string == "portrait", "\(mask)")
            // A change of lock withdraws the suggestion.
            change = try await setup.observer.nextChange()
            #expect(change.map(\.event) == ["allowed", "suggestion"], "\(change)")
            #expect(change.first?.state?["suggestion"]?.isNull == true, "\(change)")

            // lock landscape: both landscapes, so the screen still flips 180°.
            let landscape = try await controller.call("lock", #"{"mask": "landscape"}"#)
            #expect(landscape.state?["lock"]?.strings == ["landscape-left", "landscape-right"], "\(landscape)")
            #expect(landscape.state?["interface"]?.string == "landscape-left", "\(landscape)")
            change = try await setup.observer.nextChange()
            #expect(change.map(\.event) == ["allowed", "interface"], "\(change)")
            change = try await setup.rotate(to: .normal)
            #expect(change.map(\.event) == ["device", "interface"], "\(change)")
            #expect(change.last?.state?["interface"]?.string == "landscape-right", "\(change)")
            #expect(change.last?.state?["rotation"]?.integer == 0, "\(change)")
            change = try await setup.rotate(to: .bottomUp)
            #expect(change.map(\.event) == ["device", "interface"], "\(change)")
            #expect(change.last?.state?["interface"]?.string == "landscape-left", "\(change)")
            #expect(change.last?.state?["rotation"]?.integer == 180, "\(change)")
            DaemonContract.expectTransform(change.last?.state)
            change = try await setup.rotate(to: .leftUp)
            #expect(change.map(\.event) == ["device", "suggestion"], "portrait is not allowed: \(change)")
            #expect(change.first?.state?["interface"]?.string == "landscape-left", "\(change)")
            #expect(change.first?.state?["suggestion"]?.string == "portrait", "\(change)")

            // Locking what is locked changes nothing: no event, same seq.
            let seq = try #require(try await setup.expectNoEvents()?["seq"]?.integer)
            let again = try await controller.call("lock", #"{"mask": "landscape"}"#)
            #expect(again.seq == seq, "\(again)")
            let spelledOut = try await controller.call("lock", #"{"mask": ["landscape-right", "landscape-left"]}"#)
            #expect(spelledOut.seq == seq, "\(spelledOut)")
            #expect(try await setup.expectNoEvents()?["seq"]?.integer == seq)

            // lock {}: the current interface orientation.
            let currentLock = try await controller.call("lock", "{}")
            #expect(currentLock.state?["lock"]?.strings == ["landscape-left"], "\(currentLock)")
            change = try await setup.observer.nextChange()
            #expect(change.map(\.event) == ["allowed", "suggestion"], "\(change)")

            let unlocked = try await controller.call("unlock")
            #expect(unlocked.state?["lock"]?.isNull == true, "\(unlocked)")
            #expect(unlocked.state?["allowed"]?.strings == Self.all, "\(unlocked)")
            #expect(unlocked.state?["interface"]?.string == "portrait", "the device is in portrait: \(unlocked)")
            change = try await setup.observer.nextChange()
            #expect(change.map(\.event) == ["allowed", "interface"], "\(change)")
            let unlockedAgain = try await controller.call("unlock")
            #expect(unlockedAgain.seq == unlocked.seq, "\(unlockedAgain)")
            #expect(try await setup.expectNoEvents()?["seq"]?.integer == unlocked.seq)
            DaemonContract.expectWellOrdered(setup.observer.log.filter(\.isEvent))
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func anEmptyIntersectionIsRefusedAndChangesNothing() async throws {
            var setup = try await Setup()
            let controller = setup.controller
            try await setup.startGenerating()
            _ = try await controller.call("lock", #"{"orientation": "portrait"}"#)
            _ = try await setup.observer.nextChange()

            var before = try await setup.expectNoEvents()
            let constrained = try await controller.call("constrain", #"{"mask": "landscape"}"#)
            #expect(constrained.errorCode == "empty-mask", "\(constrained)")
            #expect(try await setup.expectNoEvents() == before)
            #expect(try await controller.call("get").state == before)

            _ = try await controller.call("unlock")
            _ = try await setup.observer.nextChange()
            let landscape = try await controller.call("constrain", #"{"mask": "landscape"}"#)
            #expect(landscape.state?["allowed"]?.strings == ["landscape-left", "landscape-right"], "\(landscape)")
            #expect(landscape.state?["lock"]?.isNull == true, "a constraint is no lock: \(landscape)")
            _ = try await setup.observer.nextChange()

            before = try await setup.expectNoEvents()
            let refusals = [
                try await controller.call("lock", #"{"orientation": "portrait"}"#),
                try await controller.call("lock", #"{"mask": ["portrait", "portrait-upside-down"]}"#),
                try await controller.call("lock", #"{"mask": []}"#),
                try await controller.call("constrain", #"{"mask": []}"#),
                try await setup.observer.call("constrain", #"{"mask": "portrait"}"#),
            ]
            for refusal in refusals {
                #expect(refusal.errorCode == "empty-mask", "\(refusal)")
            }
            #expect(try await setup.expectNoEvents() == before)
            #expect(try await controller.call("get").state == before)
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func aConstraintGoesAwayWithItsConnection() async throws {
            var setup = try await Setup()
            try await setup.startGenerating()

            let holder = try setup.daemon.connect()
            let constrained = try await holder.call("constrain", #"{"mask": "portrait"}"#)
            #expect(constrained.state?["allowed"]?.strings == ["portrait"], "\(constrained)")
            #expect(constrained.state?["interface"]?.string == "portrait", "\(constrained)")
            var change = try await setup.observer.nextChange()
            #expect(change.map(\.event) == ["allowed", "interface"], "\(change)")

            holder.close()
            change = try await setup.observer.nextChange()
            #expect(change.map(\.event) == ["allowed", "interface"], "\(change)")
            #expect(change.first?.state?["allowed"]?.strings == Self.all, "\(change)")
            #expect(change.last?.state?["interface"]?.string == "landscape-right", "\(change)")

            // `"mask": null` removes the connection's own constraint too.
            let other = try setup.daemon.connect()
            _ = try await other.call("constrain", #"{"mask": ["landscape-left"]}"#)
            change = try await setup.observer.nextChange()
            #expect(change.last?.state?["interface"]?.string == "landscape-left", "\(change)")
            let removed = try await other.call("constrain", #"{"mask": null}"#)
            #expect(removed.state?["allowed"]?.strings == Self.all, "\(removed)")
            change = try await setup.observer.nextChange()
            #expect(change.map(\.event) == ["allowed", "interface"], "\(change)")
            #expect(change.last?.state?["interface"]?.string == "landscape-right", "\(change)")

            // Two constraints intersect; each goes with its own connection.
            let wide = try setup.daemon.connect()
            _ = try await wide.call("constrain", #"{"mask": "all-but-upside-down"}"#)
            change = try await setup.observer.nextChange()
            #expect(change.map(\.event) == ["allowed"], "\(change)")
            _ = try await other.call("constrain", #"{"mask": ["portrait", "portrait-upside-down"]}"#)
            change = try await setup.observer.nextChange()
            #expect(change.first?.state?["allowed"]?.strings == ["portrait"], "\(change)")
            other.close()
            change = try await setup.observer.nextChange()
            #expect(
                change.first?.state?["allowed"]?.strings == ["portrait", "landscape-left", "landscape-right"],
                "\(change)"
            )
            DaemonContract.expectWellOrdered(setup.observer.log.filter(\.isEvent))
            #expect(await setup.daemon.stop() == .exited(0))
        }
    }
}
