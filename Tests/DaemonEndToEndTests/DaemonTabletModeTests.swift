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

import Foundation
import Glibc
import OrientdTestKit
import Testing

extension EmulatedDeviceTests {
    /// `[Policy] AutoRotate=tablet-mode` with an emulated accelerometer and an emulated `SW_TABLET_MODE` switch:
    /// in laptop mode the interface stays natural while the device orientation is still reported; in tablet mode
    /// it follows; `always` ignores the switch; `tablet_mode` is in the state.
    @Suite struct DaemonTabletModeTests {
        /// A daemon on an emulated accelerometer (and optionally a switch), with `AutoRotate=` as given, and one
        /// generating client whose sensor runs.
        struct Setup {
            let testbed: Testbed
            let fixture: AccelerometerFixture
            let daemon: RunningDaemon
            let client: DaemonConnection
            var feed: AccelerometerFeed
            /// The configuration file the daemon reads (again on SIGHUP).
            let configPath: String

            init(autoRotate: String, tabletSwitch: TabletSwitchFixture?) async throws {
                try await self.init(autoRotate: autoRotate, tabletSwitches: tabletSwitch.map { [$0] } ?? [])
            }

            init(autoRotate: String, tabletSwitches: [TabletSwitchFixture]) async throws {
                let testbed = Testbed()
                for tabletSwitch in tabletSwitches { try tabletSwitch.add(to: testbed) }
                let rig = try await GeneratingDaemon(
                    testbed: testbed,
                    configuration: "[Policy]\nAutoRotate=\(autoRotate)\n",
                    arguments: RunningDaemon.defaultArguments + ["--verbose"]
                )
                (self.testbed, fixture, daemon, client, feed) = (testbed, rig.fixture, rig.daemon, rig.client, rig.feed)
                configPath = try #require(rig.configPath)
            }

            /// Holds `posture` and takes the change it makes.
            mutating func turn(to posture: Posture) async throws -> [DaemonMessage] {
                try feed.hold(posture)
                return try await client.nextChange(timeout: .seconds(10), "the change to \(posture)")
            }

            /// The state `get` returns now, after every event sent before it (taken from the inbox and returned).
            func get() async throws -> DaemonJSON? {
                try await client.call("get").state
            }

            /// Polls `get` until `condition` holds for its state; returns that state, or the last one seen.
            func waitForState(_ condition: (DaemonJSON) -> Bool) async throws -> DaemonJSON? {
                let deadline = ContinuousClock.now + .seconds(10)
                var state: DaemonJSON?
                while ContinuousClock.now < deadline {
                    state = try await get()
                    if let state, condition(state) { return state }
                    try await Task.sleep(for: .milliseconds(20))
                }
                return state
            }

            /// Polls `status` until the switches it lists (device node: tablet mode) satisfy `condition`.
            func waitForSwitches(_ condition: ([String: Bool]) -> Bool) async throws -> Bool {
                let deadline = ContinuousClock.now + .seconds(10)
                while ContinuousClock.now < deadline {
                    let switches = try await client.call("status").result?["tablet_mode"]?["switches"]?.array ?? []
                    let byDevice = Dictionary(
                        switches.compactMap { entry in
                            entry["device"]?.string.flatMap { device in entry["tablet_mode"]?.bool.map { (device, $0) }
                            }
                        },
                        uniquingKeysWith: { first, _ in first }
                    )
                    if condition(byDevice) { return true }
                    try await Task.sleep(for: .milliseconds(20))
                }
                return false
            }

            /// Events that arrived and were not taken yet, after a `get` round trip as a barrier.
            func pendingEvents() async throws -> [DaemonMessage] {
                _ = try await client.call("get")
                var events: [DaemonMessage] = []
                while client.inbox.contains(where: \.isEvent) { events.append(try await client.nextEvent()) }
                return events
            }
        }

        @Test func laptopModeKeepsTheInterfaceNaturalAndTabletModeFollows() async throws {
            let tabletSwitch = TabletSwitchFixture(initiallyTablet: false)
            var setup = try await Setup(autoRotate: "tablet-mode", tabletSwitch: tabletSwitch)
            defer { setup.daemon.process.terminate() }
            let start = try #require(try await setup.get())
            #expect(start["tablet_mode"]?.bool == false, "\(start)")
            #expect(start["interface"]?.string == "unknown", "unknown until the first classification: \(start)")
            #expect(
                setup.daemon.process.errorText.contains("tablet-mode switch found"),
                "\(setup.daemon.process.report)"
            )

            // Laptop mode: the device orientation is reported, the interface stays natural.
            var all: [DaemonMessage] = []
            for (posture, device) in [
                (Posture.normal, "landscape-left"), (.leftUp, "portrait"), (.bottomUp, "landscape-right"),
            ] {
                let change = try await setup.turn(to: posture)
                all += change
                // The first classification also gives the interface its natural orientation; later turns do not.
                let first = posture == .normal
                #expect(change.map(\.event) == (first ? ["device", "interface"] : ["device"]), "\(posture): \(change)")
                #expect(change.first?.state?["device"]?.string == device, "\(posture): \(change)")
                #expect(change.first?.state?["interface"]?.string == "landscape-right", "\(posture): \(change)")
                #expect(change.first?.state?["tablet_mode"]?.bool == false, "\(posture): \(change)")
            }

            // Folded into a tablet: a tablet-mode event, and the interface takes the device's orientation at once.
            try tabletSwitch.set(tablet: true, on: setup.testbed)
            let folded = try await setup.client.nextChange(timeout: .seconds(10), "the change to tablet mode")
            all += folded
            #expect(folded.map(\.event) == ["tablet-mode", "interface"], "\(folded)")
            #expect(folded.first?.previousValue?.bool == false, "\(folded)")
            #expect(folded.last?.previous == "landscape-right", "\(folded)")
            #expect(folded.first?.state?["interface"]?.string == "landscape-left", "\(folded)")
            #expect(folded.first?.state?["tablet_mode"]?.bool == true, "\(folded)")
            DaemonContract.expectTransform(folded.first?.state)

            // Tablet mode: the interface follows the device.
            let turned = try await setup.turn(to: .leftUp)
            all += turned
            #expect(turned.map(\.event) == ["device", "interface"], "\(turned)")
            #expect(turned.last?.state?["interface"]?.string == "portrait", "\(turned)")

            // Back to laptop mode: the interface returns to natural; the device orientation stays as it is.
            try tabletSwitch.set(tablet: false, on: setup.testbed)
            let unfolded = try await setup.client.nextChange(timeout: .seconds(10), "the change to laptop mode")
            all += unfolded
            #expect(unfolded.map(\.event) == ["tablet-mode", "interface"], "\(unfolded)")
            #expect(unfolded.first?.previousValue?.bool == true, "\(unfolded)")
            #expect(unfolded.last?.previous == "portrait", "\(unfolded)")
            #expect(unfolded.first?.state?["interface"]?.string == "landscape-right", "\(unfolded)")
            #expect(unfolded.first?.state?["device"]?.string == "portrait", "\(unfolded)")
            #expect(unfolded.first?.state?["tablet_mode"]?.bool == false, "\(unfolded)")
            DaemonContract.expectWellOrdered(all)

            let get = try ChildProcess.orientctl(
                ["--socket", setup.daemon.sandbox.socketPath, "get", "--no-wait"],
                testbed: setup.testbed
            )
            await get.wait()
            #expect(
                get.outputLines.first
                    == "device=portrait interface=landscape-right rotation=0 lock=none tablet_mode=false",
                "\(get.report)"
            )
        }

        @Test func aLockStillWinsInLaptopMode() async throws {
            let tabletSwitch = TabletSwitchFixture(initiallyTablet: false)
            var setup = try await Setup(autoRotate: "tablet-mode", tabletSwitch: tabletSwitch)
            defer { setup.daemon.process.terminate() }
            // The device is held upright in portrait; laptop mode keeps the interface natural.
            let turned = try await setup.turn(to: .leftUp)
            #expect(turned.first?.state?["interface"]?.string == "landscape-right", "\(turned)")
            let locked = try await setup.client.call("lock", #"{"orientation": "portrait"}"#)
            #expect(locked.result?["interface"]?.string == "portrait", "\(locked)")
            _ = try await setup.pendingEvents()
            let unlocked = try await setup.client.call("unlock")
            #expect(unlocked.result?["interface"]?.string == "landscape-right", "unlocked: natural again, \(unlocked)")
            #expect(unlocked.result?["device"]?.string == "portrait", "\(unlocked)")
        }

        @Test func afterDroppedEventsTheSwitchIsReadAgainFromTheKernel() async throws {
            // The kernel's state (the ioctl record) says tablet; an event says laptop; then events are lost.
            let tabletSwitch = TabletSwitchFixture(initiallyTablet: true)
            var setup = try await Setup(autoRotate: "tablet-mode", tabletSwitch: tabletSwitch)
            defer { setup.daemon.process.terminate() }
            let turned = try await setup.turn(to: .leftUp)
            #expect(turned.last?.state?["interface"]?.string == "portrait", "\(turned)")
            try tabletSwitch.set(tablet: false, on: setup.testbed)
            let unfolded = try await setup.client.nextChange(timeout: .seconds(10), "laptop mode")
            #expect(unfolded.first?.state?["interface"]?.string == "landscape-right", "\(unfolded)")

            try tabletSwitch.dropEvents(on: setup.testbed)
            let resynchronised = try await setup.client.nextChange(timeout: .seconds(10), "the kernel's tablet mode")
            #expect(resynchronised.map(\.event) == ["tablet-mode", "interface"], "\(resynchronised)")
            #expect(resynchronised.first?.state?["interface"]?.string == "portrait", "\(resynchronised)")
            #expect(resynchronised.first?.state?["tablet_mode"]?.bool == true, "\(resynchronised)")
        }

        @Test func alwaysIgnoresTheSwitchButReportsIt() async throws {
            let tabletSwitch = TabletSwitchFixture(initiallyTablet: false)
            var setup = try await Setup(autoRotate: "always", tabletSwitch: tabletSwitch)
            defer { setup.daemon.process.terminate() }
            let turned = try await setup.turn(to: .leftUp)
            #expect(turned.map(\.event) == ["device", "interface"], "\(turned)")
            #expect(turned.last?.state?["interface"]?.string == "portrait", "\(turned)")
            #expect(turned.last?.state?["tablet_mode"]?.bool == false, "\(turned)")
            let before = try #require(try await setup.get()?["seq"]?.integer)

            try tabletSwitch.set(tablet: true, on: setup.testbed)
            let state = try await setup.waitForState { $0["tablet_mode"]?.bool == true }
            #expect(state?["tablet_mode"]?.bool == true, "\(String(describing: state))")
            #expect(state?["interface"]?.string == "portrait", "\(String(describing: state))")
            #expect(
                (state?["seq"]?.integer ?? 0) > before,
                "a switch change is a state change: \(String(describing: state))"
            )
            let events = try await setup.pendingEvents()
            #expect(events.map(\.event) == ["tablet-mode"], "the switch changed, the interface did not: \(events)")
            #expect(events.first?.previousValue?.bool == false, "\(events)")
            #expect(events.first?.seq == state?["seq"]?.integer, "\(events)")
        }

        @Test func withoutASwitchTabletModeRotatesAsAlwaysAndFollowsHotplug() async throws {
            var setup = try await Setup(autoRotate: "tablet-mode", tabletSwitch: nil)
            defer { setup.daemon.process.terminate() }
            #expect(try await setup.get()?["tablet_mode"]?.isNull == true)
            #expect(
                setup.daemon.process.errorText.contains("no tablet-mode switch (SW_TABLET_MODE) is found"),
                "\(setup.daemon.process.report)"
            )
            let turned = try await setup.turn(to: .leftUp)
            #expect(turned.map(\.event) == ["device", "interface"], "\(turned)")
            #expect(turned.last?.state?["interface"]?.string == "portrait", "\(turned)")

            // A switch appears, reading laptop mode: the interface goes natural.
            let tabletSwitch = TabletSwitchFixture(initiallyTablet: false)
            try tabletSwitch.add(to: setup.testbed, announce: true)
            let appeared = try await setup.client.nextChange(
                timeout: .seconds(10),
                "the change when the switch appears"
            )
            #expect(appeared.map(\.event) == ["tablet-mode", "interface"], "\(appeared)")
            #expect(appeared.first?.previousValue?.isNull == true, "no switch before: \(appeared)")
            #expect(appeared.first?.state?["interface"]?.string == "landscape-right", "\(appeared)")
            #expect(appeared.first?.state?["tablet_mode"]?.bool == false, "\(appeared)")

            // It goes: tablet mode is unknown again, and the interface follows the device.
            try setup.testbed.removeDevice(tabletSwitch.syspath, announce: true)
            let gone = try await setup.client.nextChange(timeout: .seconds(10), "the change when the switch goes")
            #expect(gone.map(\.event) == ["tablet-mode", "interface"], "\(gone)")
            #expect(gone.first?.previousValue?.bool == false, "\(gone)")
            #expect(gone.first?.state?["interface"]?.string == "portrait", "\(gone)")
            #expect(gone.first?.state?["tablet_mode"]?.isNull == true, "\(gone)")
        }

        @Test func anyOfSeveralSwitchesInTabletModeMeansTablet() async throws {
            let first = TabletSwitchFixture(inputNumber: 7, eventNumber: 5)
            let second = TabletSwitchFixture(inputNumber: 8, eventNumber: 6, name: "Ideapad extra buttons")
            var setup = try await Setup(autoRotate: "tablet-mode", tabletSwitches: [first, second])
            defer { setup.daemon.process.terminate() }
            _ = try await setup.turn(to: .leftUp)
            #expect(try await setup.get()?["interface"]?.string == "landscape-right")

            try second.set(tablet: true, on: setup.testbed)
            let folded = try await setup.client.nextChange(timeout: .seconds(10), "tablet mode from the second switch")
            #expect(folded.first?.state?["interface"]?.string == "portrait", "\(folded)")
            #expect(folded.first?.state?["tablet_mode"]?.bool == true, "\(folded)")

            // The first switch joins, then (once the daemon has read that) the second leaves: one of them still
            // says tablet, nothing changes.
            try first.set(tablet: true, on: setup.testbed)
            #expect(try await setup.waitForSwitches { $0 == ["/dev/input/event5": true, "/dev/input/event6": true] })
            try second.set(tablet: false, on: setup.testbed)
            #expect(try await setup.waitForSwitches { $0 == ["/dev/input/event5": true, "/dev/input/event6": false] })
            let quiet = try await setup.pendingEvents()
            #expect(quiet.isEmpty, "\(quiet)")
            #expect(try await setup.get()?["tablet_mode"]?.bool == true)

            try first.set(tablet: false, on: setup.testbed)
            let unfolded = try await setup.client.nextChange(timeout: .seconds(10), "laptop mode from both switches")
            #expect(unfolded.map(\.event) == ["tablet-mode", "interface"], "\(unfolded)")
            #expect(unfolded.first?.state?["interface"]?.string == "landscape-right", "\(unfolded)")
            #expect(unfolded.first?.state?["tablet_mode"]?.bool == false, "\(unfolded)")
        }

        @Test func switchesAreFoundByTheirCapabilitiesAndLidSwitchesAreSkipped() async throws {
            // No ID_INPUT_SWITCH from udev: the kernel's capabilities/sw tells. A lid switch is opened and left.
            let tabletSwitch = TabletSwitchFixture(initiallyTablet: true, udevMarksSwitch: false)
            let lid = TabletSwitchFixture(inputNumber: 8, eventNumber: 6, name: "Lid Switch", switchBits: 0x01)
            let setup = try await Setup(autoRotate: "tablet-mode", tabletSwitches: [tabletSwitch, lid])
            defer { setup.daemon.process.terminate() }
            #expect(try await setup.get()?["tablet_mode"]?.bool == true)
            let report = try await setup.client.call("status").result?["tablet_mode"]
            #expect(report?["auto_rotate"]?.string == "tablet-mode", "\(String(describing: report))")
            #expect(report?["follows_device"]?.bool == true, "\(String(describing: report))")
            let switches = report?["switches"]?.array ?? []
            #expect(switches.count == 1, "\(String(describing: report))")
            #expect(switches.first?["device"]?.string == "/dev/input/event5", "\(String(describing: report))")
            #expect(switches.first?["name"]?.string == "Intel HID switches", "\(String(describing: report))")
            #expect(switches.first?["tablet_mode"]?.bool == true, "\(String(describing: report))")
        }

        @Test func aReloadToTabletModeHoldsTheInterfaceAndBackToAlwaysReleasesIt() async throws {
            let tabletSwitch = TabletSwitchFixture(initiallyTablet: false)
            var setup = try await Setup(autoRotate: "always", tabletSwitch: tabletSwitch)
            defer { setup.daemon.process.terminate() }
            let turned = try await setup.turn(to: .leftUp)
            #expect(turned.last?.state?["interface"]?.string == "portrait", "\(turned)")

            try "[Policy]\nAutoRotate=tablet-mode\n".write(toFile: setup.configPath, atomically: true, encoding: .utf8)
            setup.daemon.process.signal(SIGHUP)
            let held = try await setup.client.nextChange(timeout: .seconds(10), "the reload to tablet-mode")
            #expect(held.map(\.event) == ["interface"], "\(held)")
            #expect(held.first?.state?["interface"]?.string == "landscape-right", "\(held)")

            try "[Policy]\nAutoRotate=always\n".write(toFile: setup.configPath, atomically: true, encoding: .utf8)
            setup.daemon.process.signal(SIGHUP)
            let released = try await setup.client.nextChange(timeout: .seconds(10), "the reload to always")
            #expect(released.map(\.event) == ["interface"], "\(released)")
            #expect(released.first?.state?["interface"]?.string == "portrait", "\(released)")
        }
    }
}
