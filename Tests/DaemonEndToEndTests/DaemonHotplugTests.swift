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
    /// No accelerometer: the daemon still serves (`sensor: absent`) and picks one up on hotplug.
    @Suite struct DaemonHotplugTests {
        @Test func withoutAnAccelerometerTheDaemonServesAndTakesOneOnHotplug() async throws {
            let testbed = Testbed()
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox())
            let client = try daemon.connect()
            let hello = try await client.call("hello")
            // Nobody generates, but the daemon knows there is no accelerometer: absent, not stopped.
            #expect(hello.result?["sensor"]?["status"]?.string == "absent", "\(hello)")
            #expect(hello.result?["sensor"]?["device"]?.isNull == true, "\(hello)")
            let idle = try await client.call("status")
            #expect(idle.result?["sensor"]?["status"]?.string == "absent", "\(idle)")
            #expect(idle.result?["state"]?["sensor"]?.string == "absent", "\(idle)")

            let begun = try await client.call("begin")
            #expect(begun.result?["count"]?.integer == 1, "\(begun)")
            #expect(begun.state?["sensor"]?.string == "absent", "\(begun)")
            #expect(begun.state?["device"]?.string == "unknown", "\(begun)")
            let status = try await client.call("status")
            #expect(status.result?["sensor"]?["status"]?.string == "absent", "\(status)")

            // The daemon's udev monitor listens before the device is plugged in.
            #expect(await daemon.process.waitUntil("its udev monitor listens") { testbed.monitorCount >= 1 })
            let fixture = AccelerometerFixture()
            try testbed.add(fixture.description, announce: true)
            let active = try await client.nextEvent(timeout: .seconds(10), "the sensor event on hotplug")
            #expect(active.event == "sensor", "\(active)")
            #expect(active.previous == "absent", "\(active)")
            #expect(active.state?["sensor"]?.string == "active", "\(active)")
            await daemon.waitForBufferEnable("1", fixture)

            var feed = AccelerometerFeed(fixture: fixture, testbed: testbed)
            try feed.hold(.leftUp)
            let change = try await client.nextChange()
            #expect(change.map(\.event) == ["device", "interface"], "\(change)")
            #expect(change.last?.state?["interface"]?.string == "portrait", "\(change)")
            let named = try await client.call("hello")
            #expect(named.result?["sensor"]?["device"]?.string == fixture.name, "\(named)")
            #expect(named.result?["sensor"]?["status"]?.string == "active", "\(named)")
            DaemonContract.expectWellOrdered(client.log.filter(\.isEvent))
            #expect(await daemon.stop() == .exited(0))
            #expect(daemon.bufferEnable(fixture) == "0")
        }

        @Test func anAccelerometerPluggedInWhileNobodyGeneratesIsUsedAtTheFirstBegin() async throws {
            let testbed = Testbed()
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox())
            let client = try daemon.connect()
            #expect(await daemon.process.waitUntil("its udev monitor listens") { testbed.monitorCount >= 1 })
            let fixture = AccelerometerFixture()
            try testbed.add(fixture.description, announce: true)
            #expect(daemon.bufferEnable(fixture) == "0", "nobody generates: the sensor stays stopped")

            let begun = try await client.call("begin")
            #expect(begun.state?["sensor"]?.string == "active", "\(begun)\n\(daemon.process.errorText)")
            let started = try await client.nextEvent()
            #expect(started.event == "sensor" && started.previous == "stopped", "\(started)")
            await daemon.waitForBufferEnable("1", fixture)
            var feed = AccelerometerFeed(fixture: fixture, testbed: testbed)
            try feed.hold(.normal)
            let change = try await client.nextChange()
            #expect(change.first?.state?["device"]?.string == "landscape-left", "\(change)")
            #expect(await daemon.stop() == .exited(0))
        }

        /// `active` → `absent` when the device disappears, `absent` → `active` when it returns while someone
        /// generates; the device orientation comes again from the returned device.
        @Test func aRemovedAccelerometerIsAbsentUntilItReturns() async throws {
            var fixture = AccelerometerFixture()
            fixture.trigger = .none
            var rig = try await GeneratingDaemon(fixture: fixture)
            let (testbed, daemon, client) = (rig.testbed, rig.daemon, rig.client)
            _ = try await rig.turn(to: .normal)
            var feed = rig.feed
            try await daemon.waitUntilRead(feed.written, via: client)
            #expect(await daemon.process.waitUntil("its udev monitor listens") { testbed.monitorCount >= 1 })

            try testbed.removeDevice(fixture.syspath, announce: true)
            let gone = try await client.nextChange(timeout: .seconds(10), "the sensor event on removal")
            #expect(gone.first?.event == "sensor", "\(gone)")
            #expect(gone.first?.previous == "active", "\(gone)")
            #expect(gone.first?.state?["sensor"]?.string == "absent", "\(gone)")
            #expect(gone.first?.state?["interface"]?.string == "landscape-right", "the interface keeps its value")

            try testbed.add(fixture.deviceDescription, announce: true)
            let back = try await client.nextEvent(timeout: .seconds(10), "the sensor event on return")
            #expect(back.event == "sensor" && back.previous == "absent", "\(back)")
            #expect(back.state?["sensor"]?.string == "active", "\(back)")
            await daemon.waitForBufferEnable("1", fixture)
            try feed.hold(.leftUp)
            let change = try await client.events(until: "portrait") { $0.state?["device"]?.string == "portrait" }
            #expect(change.last?.state?["interface"]?.string == "portrait", "\(change)")
            DaemonContract.expectWellOrdered(client.log.filter(\.isEvent))
            #expect(await daemon.stop() == .exited(0))
        }

        /// The same with a trigger device that stays while the accelerometer goes (HID sensors), several times in a
        /// row: after each return the daemon sets the trigger again, and a second client that never generated is
        /// answered throughout.
        @Test(arguments: Reliability.runs)
        func anAccelerometerWithATriggerReturnsAgainAndAgain(run: Int) async throws {
            var rig = try await GeneratingDaemon()
            let (fixture, testbed, daemon, client) = (rig.fixture, rig.testbed, rig.daemon, rig.client)
            let bystander = try daemon.connect()
            _ = try await rig.turn(to: .normal)
            var feed = rig.feed
            try await daemon.waitUntilRead(feed.written, via: client)
            #expect(await daemon.process.waitUntil("its udev monitor listens") { testbed.monitorCount >= 1 })

            for (round, posture) in [(1, Posture.leftUp), (2, .normal), (3, .leftUp)] {
                try testbed.removeDevice(fixture.syspath, announce: true)
                let gone = try await client.nextChange(timeout: .seconds(10), "the sensor event on removal \(round)")
                #expect(gone.first?.event == "sensor" && gone.first?.previous == "active", "\(gone)")
                #expect(gone.first?.state?["device"]?.string == "unknown", "\(gone)")
                let meanwhile = try await bystander.call("get")
                #expect(meanwhile.result?["sensor"]?.string == "absent", "\(meanwhile)")

                try testbed.add(fixture.deviceDescription, announce: true)
                let back = try await client.nextEvent(timeout: .seconds(10), "the sensor event on return \(round)")
                #expect(back.event == "sensor" && back.previous == "absent", "\(back)")
                await daemon.waitForBufferEnable("1", fixture)
                #expect(try testbed.attribute(fixture.syspath, "trigger/current_trigger") == fixture.triggerName)
                try feed.hold(posture)
                // The interface event ends the change (it turns each round: portrait, landscape-right, portrait).
                let change = try await client.events(until: "the interface event \(round)") { $0.event == "interface" }
                let expected = posture == .leftUp ? "portrait" : "landscape-left"
                #expect(change.last?.state?["device"]?.string == expected, "\(change)")
                try await daemon.waitUntilRead(feed.written, via: client)
            }
            DaemonContract.expectWellOrdered(client.log.filter(\.isEvent))
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
