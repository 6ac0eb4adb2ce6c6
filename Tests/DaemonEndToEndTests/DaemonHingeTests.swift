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
    /// A convertible with two emulated accelerometers, one in the lid (display) and one in the base, and no switch:
    /// the hinge angle and tablet mode in `get`, `AutoRotate=tablet-mode` in laptop mode, a switch over the hinge,
    /// the manual tablet mode, the base sensor's hotplug, and no reading while nobody generates.
    @Suite struct DaemonHingeTests {
        /// The daemon on a display accelerometer (buffered or polled) and a polled base one, with one generating
        /// client. Readings are counts, 1 g = 1000.
        struct Convertible {
            let testbed: Testbed
            let display: AccelerometerFixture
            let base: AccelerometerFixture
            let sandbox: DaemonSandbox
            let configPath: String
            /// `/dev/uinput`, when asked for: the virtual tablet-mode switch's records. Without it the configuration
            /// says `VirtualTabletSwitch=no`, so that the daemon never makes a device on the host.
            let uinput: UInputEmulation?
            private(set) var daemon: RunningDaemon
            private(set) var client: DaemonConnection
            var feed: AccelerometerFeed

            init(
                displayBuffered: Bool = true,
                autoRotate: String = "tablet-mode",
                policy: [String] = [],
                tabletSwitch: TabletSwitchFixture? = nil,
                uinput: Bool = false,
                generating: Bool = true
            ) async throws {
                testbed = Testbed()
                var (display, base) = AccelerometerFixture.convertiblePair()
                if !displayBuffered { display.capture = .pollOnly }
                base.capture = .pollOnly
                base.trigger = .none
                self.display = display
                self.base = base
                try testbed.add(display.description)
                try testbed.add(base.description)
                try tabletSwitch?.add(to: testbed)
                self.uinput = uinput ? try UInputEmulation(testbed: testbed) : nil
                sandbox = try DaemonSandbox()
                configPath = sandbox.directory + "/orientd.conf"
                // Without the emulated /dev/uinput the daemon would open the host's: no virtual switch then.
                let virtualSwitch = uinput ? [] : ["VirtualTabletSwitch=no"]
                try (["[Policy]", "AutoRotate=\(autoRotate)"] + virtualSwitch + policy).map { $0 + "\n" }.joined()
                    .write(toFile: configPath, atomically: true, encoding: .utf8)
                feed = AccelerometerFeed(fixture: display, testbed: testbed)
                (daemon, client) = try await Self.start(
                    testbed: testbed,
                    sandbox: sandbox,
                    config: configPath,
                    generating: generating
                )
                if displayBuffered && generating { await daemon.waitForBufferEnable("1", display) }
            }

            private static func start(
                testbed: Testbed,
                sandbox: DaemonSandbox,
                config: String,
                generating: Bool = true
            ) async throws -> (RunningDaemon, DaemonConnection) {
                let daemon = try await RunningDaemon(
                    testbed: testbed,
                    sandbox: sandbox,
                    arguments: RunningDaemon.defaultArguments + ["--config", config, "--verbose"]
                )
                let client = try daemon.connect()
                guard generating else { return (daemon, client) }
                let begun = try await client.call("begin")
                // With the virtual switch reading the hinge, the sensors run already: no `sensor` event then.
                if begun.state?["sensor"]?.string != "active" {
                    let started = try await client.nextEvent(timeout: .seconds(10), "the sensor event")
                    #expect(started.event == "sensor", "\(started)")
                }
                return (daemon, client)
            }

            /// Stops the daemon and starts it again on the same devices, state directory and configuration.
            mutating func restart() async throws {
                client.close()
                #expect(await daemon.stop() == .exited(0), "\(daemon.process.report)")
                (daemon, client) = try await Self.start(testbed: testbed, sandbox: sandbox, config: configPath)
                if display.capture == .buffered { await daemon.waitForBufferEnable("1", display) }
            }

            /// The display's reading with the base flat on a table and the lid opened to `degrees` (0 closed, 90
            /// upright, 180 flat, 270 tent, 360 folded back).
            static func lid(at degrees: Double) -> AxisValues<Int64> {
                let radians = degrees * .pi / 180
                return AxisValues(
                    x: 0,
                    y: Int64((-1000 * sin(radians)).rounded()),
                    z: Int64((-1000 * cos(radians)).rounded())
                )
            }

            /// Holds both readings (the display's fed in real time, a tenth of a second at a time, or set for
            /// polling; the base's set for polling, unless nil: removed) for at least `atLeast` seconds and until `get` satisfies
            /// `condition`; that state, or the last one seen after 10 s.
            mutating func hold(
                display reading: AxisValues<Int64>,
                base baseReading: AxisValues<Int64>? = AxisValues(x: 0, y: 0, z: -1000),
                atLeast: Duration = .zero,
                until condition: (DaemonJSON) -> Bool
            ) async throws -> DaemonJSON? {
                if let baseReading { try set(base, baseReading) }
                if display.capture == .pollOnly { try set(display, reading) }
                let start = ContinuousClock.now
                var state: DaemonJSON?
                while ContinuousClock.now < start + .seconds(10) {
                    if display.capture == .buffered { try feed.hold(reading: reading, seconds: 0.1) }
                    try await Task.sleep(for: .milliseconds(100))
                    state = try await client.call("get").state
                    if let state, ContinuousClock.now >= start + atLeast, condition(state) { return state }
                }
                return state
            }

            /// Opens the lid to `degrees` and waits until `get` shows that angle (±1°).
            mutating func open(to degrees: Double) async throws -> DaemonJSON? {
                try await hold(display: Self.lid(at: degrees)) { state in
                    state["hinge"]?.double.map { abs($0 - degrees) <= 1 } == true
                }
            }

            private func set(_ fixture: AccelerometerFixture, _ reading: AxisValues<Int64>) throws {
                try testbed.setAttribute(fixture.syspath, "in_accel_x_raw", String(reading.x))
                try testbed.setAttribute(fixture.syspath, "in_accel_y_raw", String(reading.y))
                try testbed.setAttribute(fixture.syspath, "in_accel_z_raw", String(reading.z))
            }

            /// `orientctl ARGUMENTS` against the daemon: its first output line, and its exit status.
            func orientctl(_ arguments: [String]) async throws -> (line: String?, status: OrientdTestKit.ExitStatus) {
                let child = try ChildProcess.orientctl(["--socket", sandbox.socketPath] + arguments, testbed: testbed)
                let status = await child.wait()
                return (child.outputLines.first, status)
            }
        }

        @Test(arguments: [true, false])
        func theHingeAndTabletModeAreInGet(displayBuffered: Bool) async throws {
            var convertible = try await Convertible(displayBuffered: displayBuffered)
            defer { convertible.daemon.process.terminate() }
            for (angle, tablet) in [(90.0, false), (180.0, false), (270.0, true), (330.0, true)] {
                let state = try #require(try await convertible.open(to: angle), "\(convertible.daemon.process.report)")
                let hinge = try #require(state["hinge"]?.double, "\(angle)°: \(state)")
                #expect(abs(hinge - angle) <= 1, "\(angle)°: \(state)")
                #expect(state["tablet_mode"]?.bool == tablet, "\(angle)°: \(state)")
                #expect(state["tablet_mode_source"]?.string == "hinge", "\(angle)°: \(state)")
            }
            // Folded flat against the base: closed and folded look alike, so the angle is unknown and the
            // decision (tablet) stands.
            let folded = try await convertible.hold(display: Convertible.lid(at: 360), atLeast: .seconds(1)) {
                $0["hinge"]?.isNull == true
            }
            #expect(folded?["hinge"]?.isNull == true, "\(String(describing: folded))")
            #expect(folded?["tablet_mode"]?.bool == true, "\(String(describing: folded))")
            _ = try await convertible.open(to: 100)
            let closed = try await convertible.hold(display: Convertible.lid(at: 0), atLeast: .seconds(1)) {
                $0["hinge"]?.isNull == true
            }
            #expect(closed?["tablet_mode"]?.bool == false, "closed keeps laptop mode: \(String(describing: closed))")

            let opened = try #require(try await convertible.open(to: 187.5))
            #expect(opened["tablet_mode"]?.bool == false, "inside the band the decision stands")
            // The line: `… lock=none hinge=187.6 tablet_mode=false`, the angle with one decimal.
            let get = try await convertible.orientctl(["get", "--no-wait"])
            let words = get.line?.split(separator: " ") ?? []
            #expect(words.last == "tablet_mode=false", "\(String(describing: get.line))")
            let hingeWord = try #require(words.first { $0.hasPrefix("hinge=") }, "\(String(describing: get.line))")
            let printed = String(hingeWord.dropFirst("hinge=".count))
            #expect(printed.split(separator: ".").last?.count == 1, "one decimal: \(printed)")
            #expect(Double(printed).map { abs($0 - 187.5) <= 1 } == true, "\(printed)")
        }

        @Test func laptopModeHoldsTheInterfaceNaturalWhileTheLidTurns() async throws {
            var convertible = try await Convertible()
            defer { convertible.daemon.process.terminate() }
            let laptop = try #require(try await convertible.open(to: 100))
            #expect(laptop["tablet_mode"]?.bool == false)
            #expect(laptop["interface"]?.string == "landscape-right", "\(laptop)")
            // The first classification and the first decision are behind; what follows is the lid turning.
            while convertible.client.inbox.contains(where: \.isEvent) { _ = try await convertible.client.nextEvent() }
            let turnsFrom = convertible.client.log.count
            var events: [DaemonMessage] = []
            for angle in [120.0, 150.0, 170.0, 110.0] {
                _ = try await convertible.open(to: angle)
                while convertible.client.inbox.contains(where: \.isEvent) {
                    events.append(try await convertible.client.nextEvent())
                }
            }
            // The whole machine on its side: the hinge axis is vertical, the angle unknown, laptop mode stands;
            // the device orientation turns, the interface does not.
            let side = try await convertible.hold(
                display: AxisValues(x: 1000, y: 0, z: 0),
                base: AxisValues(x: 1000, y: 0, z: 0)
            ) { $0["device"]?.string == "portrait" }
            #expect(side?["hinge"]?.isNull == true, "\(String(describing: side))")
            #expect(side?["tablet_mode"]?.bool == false)
            #expect(side?["interface"]?.string == "landscape-right", "\(String(describing: side))")
            while convertible.client.inbox.contains(where: \.isEvent) {
                events.append(try await convertible.client.nextEvent())
            }
            #expect(!events.contains { $0.event == "interface" || $0.event == "tablet-mode" }, "\(events)")

            // Folded into a tent: tablet mode, and the interface follows the device at once.
            let tent = try await convertible.hold(display: Convertible.lid(at: 300)) { $0["tablet_mode"]?.bool == true }
            #expect(tent?["tablet_mode_source"]?.string == "hinge", "\(String(describing: tent))")
            let change = try #require(
                convertible.client.log[turnsFrom...].first { $0.event == "tablet-mode" },
                "\(convertible.client.log)"
            )
            #expect(change.previousValue?.bool == false)
            #expect(change.state?["tablet_mode"]?.bool == true)
        }

        @Test func aSwitchOverridesTheHinge() async throws {
            let tabletSwitch = TabletSwitchFixture(initiallyTablet: false)
            var convertible = try await Convertible(tabletSwitch: tabletSwitch)
            defer { convertible.daemon.process.terminate() }
            let tent = try #require(try await convertible.open(to: 300))
            #expect(tent["tablet_mode"]?.bool == false, "the switch says laptop: \(tent)")
            #expect(tent["tablet_mode_source"]?.string == "switch")
            try tabletSwitch.set(tablet: true, on: convertible.testbed)
            let folded = try await convertible.hold(display: Convertible.lid(at: 100)) {
                $0["tablet_mode"]?.bool == true && $0["hinge"]?.double.map { abs($0 - 100) <= 1 } == true
            }
            #expect(folded?["tablet_mode_source"]?.string == "switch", "\(String(describing: folded))")
            #expect(folded.flatMap { $0["hinge"]?.double }.map { abs($0 - 100) <= 1 } == true)
        }

        @Test func theManualTabletModeIsForControllersAndSurvivesARestart() async throws {
            for tool in ["/usr/bin/setpriv", "/usr/bin/socat"] {
                try #require(FileManager.default.isExecutableFile(atPath: tool), "\(tool) is needed")
            }
            var convertible = try await Convertible()
            defer { convertible.daemon.process.terminate() }
            _ = try await convertible.open(to: 100)

            let user = try DaemonTestUser()
            let refused = try user.exchange(
                [#"{"id": 1, "method": "tablet-mode", "params": {"mode": "on"}}"#],
                socket: convertible.sandbox.socketPath
            )
            #expect(refused.output.contains(#""code":"permission-denied""#), "\(refused.output)")
            #expect(try await convertible.client.call("get").state?["tablet_mode"]?.bool == false)

            let on = try await convertible.orientctl(["tablet-mode", "on"])
            #expect(on.status == .exited(0))
            #expect(on.line?.hasSuffix("tablet_mode=true") == true, "\(String(describing: on.line))")
            let state = try await convertible.client.call("get").state
            #expect(state?["tablet_mode_source"]?.string == "manual", "\(String(describing: state))")
            let saved = try String(contentsOfFile: convertible.sandbox.stateFile, encoding: .utf8)
            #expect(saved.contains(#""tablet_mode": "on""#), "\(saved)")

            try await convertible.restart()
            let restored = try await convertible.open(to: 100)
            #expect(restored?["tablet_mode"]?.bool == true, "the hinge says laptop; the manual setting wins")
            #expect(restored?["tablet_mode_source"]?.string == "manual")

            let auto = try await convertible.orientctl(["tablet-mode", "auto"])
            #expect(auto.status == .exited(0))
            let back = try await convertible.hold(display: Convertible.lid(at: 100)) {
                $0["tablet_mode_source"]?.string == "hinge"
            }
            #expect(back?["tablet_mode"]?.bool == false, "\(String(describing: back))")
            let bad = try await convertible.orientctl(["tablet-mode", "sideways"])
            #expect(bad.status == .exited(2))
        }

        @Test func aRemovedBaseSensorTakesTheHingeAwayUntilItReturns() async throws {
            var convertible = try await Convertible()
            defer { convertible.daemon.process.terminate() }
            let tent = try #require(try await convertible.open(to: 300))
            #expect(tent["tablet_mode"]?.bool == true)

            try convertible.testbed.removeDevice(convertible.base.syspath, announce: true)
            let gone = try await convertible.hold(display: Convertible.lid(at: 300), base: nil) {
                $0["tablet_mode_source"]?.isNull == true
            }
            #expect(gone?["tablet_mode"]?.isNull == true, "no switch, no hinge: \(String(describing: gone))")
            #expect(gone?["hinge"]?.isNull == true)
            #expect(gone?["sensor"]?.string == "active", "the display sensor goes on")

            _ = try convertible.testbed.add(convertible.base.description, announce: true)
            let back = try await convertible.open(to: 300)
            #expect(back?["tablet_mode"]?.bool == true, "\(String(describing: back))")
            #expect(back?["tablet_mode_source"]?.string == "hinge")
        }

        @Test func nobodyGeneratingNothingIsReadAndTabletModeStays() async throws {
            var convertible = try await Convertible()
            defer { convertible.daemon.process.terminate() }
            _ = try await convertible.open(to: 300)
            let status = try await convertible.client.call("status").result
            #expect(status?["base_sensor"]?["device"]?.string == "iio:device1", "\(String(describing: status))")
            #expect(status?["base_sensor"]?["status"]?.string == "active")

            _ = try await convertible.client.call("end")
            let observer = try convertible.daemon.connect()
            let before = try await observer.call("status").result
            try await Task.sleep(for: .milliseconds(500))
            let after = try await observer.call("status").result
            #expect(after?["base_sensor"]?["status"]?.string == "stopped", "\(String(describing: after))")
            let read = before?["base_sensor"]?["samples_read"]?.integer
            #expect(read != nil && read == after?["base_sensor"]?["samples_read"]?.integer, "no reading while idle")
            #expect(before?["sensor"]?["samples_read"]?.integer == after?["sensor"]?["samples_read"]?.integer)
            let state = try await observer.call("get").state
            #expect(state?["hinge"]?.isNull == true, "\(String(describing: state))")
            #expect(state?["tablet_mode"]?.bool == true, "the last decision stands")
        }
    }
}
