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
    /// The virtual tablet-mode switch (`[Policy] VirtualTabletSwitch=`) on a convertible with two emulated
    /// accelerometers and an emulated `/dev/uinput`: made with its capabilities and state when the hinge first
    /// decides, told every change, never made before a decision or beside a real switch, removed at exit; reading the
    /// hinge with no client generating unless `VirtualTabletSwitch=no`.
    @Suite struct DaemonVirtualSwitchTests {
        typealias Convertible = DaemonHingeTests.Convertible
        typealias Record = UInputEmulation.Record

        /// What the daemon logs as the switch claims the sensors, and as it gives the claim up.
        static let claimLine = "the virtual tablet-mode switch keeps the sensors running to read the hinge"
        static let releaseLine = "the virtual tablet-mode switch no longer keeps the sensors running"

        /// A convertible with a polled display, an emulated `/dev/uinput`, the switch off and nobody generating.
        static func switchedOff() async throws -> Convertible {
            try await Convertible(
                displayBuffered: false,
                policy: ["VirtualTabletSwitch=no"],
                uinput: true,
                generating: false
            )
        }

        /// The records from the last `UI_DEV_CREATE` on: the state written on creation and every change since.
        static func sinceCreation(_ records: [Record]) -> [Record] {
            guard let created = records.lastIndex(of: .create) else { return [] }
            return Array(records[(created + 1)...]).filter { $0 != .getSysname }
        }

        /// The events a change of tablet mode writes.
        static func change(_ tablet: Bool) -> [Record] { [.tabletMode(tablet), .report] }

        /// Folds the open laptop into a tablet and opens it again, checking that the switch is told each change after
        /// the laptop state it was made with; the records then.
        static func foldAndUnfold(_ convertible: inout Convertible, _ uinput: UInputEmulation) async throws -> [Record]
        {
            _ = try #require(
                try await convertible.hold(display: Convertible.lid(at: 300)) { $0["tablet_mode"]?.bool == true }
            )
            var records = try await uinput.records { sinceCreation($0).count == 4 }
            #expect(sinceCreation(records) == change(false) + change(true), "folded: \(records)")
            _ = try #require(
                try await convertible.hold(display: Convertible.lid(at: 100)) { $0["tablet_mode"]?.bool == false }
            )
            records = try await uinput.records { sinceCreation($0).count == 6 }
            #expect(sinceCreation(records) == change(false) + change(true) + change(false), "opened: \(records)")
            return records
        }

        @Test func foldUnfoldAndTheManualSettingAreWrittenAndExitRemovesIt() async throws {
            var convertible = try await Convertible(uinput: true)
            defer { convertible.daemon.process.terminate() }
            let uinput = try #require(convertible.uinput)

            let laptop = try #require(try await convertible.open(to: 100))
            #expect(laptop["tablet_mode"]?.bool == false && laptop["tablet_mode_source"]?.string == "hinge")
            var records = try await uinput.records { Self.sinceCreation($0) == Self.change(false) }
            #expect(Self.sinceCreation(records) == Self.change(false), "made with the state decided: \(records)")
            // The device: one switch, SW_TABLET_MODE, on the virtual bus, named so that orientd knows its own.
            #expect(records.first == .opened, "\(records)")
            #expect(records.contains(.getVersion))
            #expect(records.filter { if case .setSwitchBit = $0 { true } else { false } } == [.setSwitchBit(1)])
            let types = records.compactMap { if case .setEventBit(let type) = $0 { type } else { nil } }
            #expect(types.contains(5) && types.allSatisfy { $0 == 0 || $0 == 5 }, "EV_SW only: \(types)")
            #expect(records.contains(.setup(name: "orientd tablet-mode switch", bus: 6, vendor: 0, product: 0)))
            #expect(!records.contains { if case .other = $0 { true } else { false } }, "\(records)")

            records = try await Self.foldAndUnfold(&convertible, uinput)

            // The manual setting wins over the hinge, and the switch says it; back to auto, the hinge again.
            #expect(try await convertible.orientctl(["tablet-mode", "on"]).status == .exited(0))
            records = try await uinput.records { Self.sinceCreation($0).count == 8 }
            #expect(Array(Self.sinceCreation(records).suffix(2)) == Self.change(true), "manual on: \(records)")
            #expect(try await convertible.orientctl(["tablet-mode", "auto"]).status == .exited(0))
            records = try await uinput.records { Self.sinceCreation($0).count == 10 }
            #expect(Array(Self.sinceCreation(records).suffix(2)) == Self.change(false), "auto: \(records)")
            #expect(records.filter { $0 == .create }.count == 1, "one device all along: \(records)")

            #expect(await convertible.daemon.stop() == .exited(0), "\(convertible.daemon.process.report)")
            records = try await uinput.records { $0.last == .destroy }
            #expect(records.last == .destroy, "removed at exit: \(records)")
        }

        @Test func withNobodyGeneratingTheSwitchReadsTheHingeItself() async throws {
            // Only libinput listens (the desktop waits for the switch): no client generates.
            // The display polled: nothing is written to a device node that nobody may read.
            var convertible = try await Convertible(displayBuffered: false, uinput: true, generating: false)
            defer { convertible.daemon.process.terminate() }
            let uinput = try #require(convertible.uinput)

            let laptop = try #require(try await convertible.open(to: 100), "\(convertible.daemon.process.report)")
            #expect(laptop["tablet_mode"]?.bool == false && laptop["tablet_mode_source"]?.string == "hinge")
            // The switch's own claim counts like a client's (PROTOCOL.md): the sensor runs, so `generating` is true.
            #expect(laptop["generating"]?.bool == true && laptop["sensor"]?.string == "active", "\(laptop)")
            var records = try await uinput.records { Self.sinceCreation($0) == Self.change(false) }
            #expect(Self.sinceCreation(records) == Self.change(false), "\(records)")

            records = try await Self.foldAndUnfold(&convertible, uinput)

            let status = try #require(try await convertible.client.call("status").result)
            #expect(status["sensor"]?["status"]?.string == "active", "\(status)")
            #expect(status["base_sensor"]?["status"]?.string == "active", "\(status)")
            #expect(status["generating_connections"]?.integer == 1 && status["generation_total"]?.integer == 1)
            #expect(status["tablet_mode"]?["virtual_switch_keeps_sensors_on"]?.bool == true, "\(status)")
            let text = try ChildProcess.orientctl(
                ["--socket", convertible.sandbox.socketPath, "status"],
                testbed: convertible.testbed
            )
            #expect(await text.wait() == .exited(0))
            #expect(
                text.outputLines.contains { $0.contains("keeps the sensors on to read the hinge") },
                "\(text.outputLines)"
            )

            // VirtualTabletSwitch=no, reloaded: the switch goes and the sensors stop.
            try "[Policy]\nAutoRotate=tablet-mode\nVirtualTabletSwitch=no\n"
                .write(toFile: convertible.configPath, atomically: true, encoding: .utf8)
            convertible.daemon.process.signal(SIGHUP)
            records = try await uinput.records { $0.last == .destroy }
            #expect(records.last == .destroy, "\(records)")
            let stopped = try await convertible.hold(display: Convertible.lid(at: 100)) {
                $0["sensor"]?.string == "stopped"
            }
            #expect(stopped?["sensor"]?.string == "stopped", "\(String(describing: stopped))")
            let after = try #require(try await convertible.client.call("status").result)
            #expect(after["tablet_mode"]?["virtual_switch_keeps_sensors_on"]?.bool == false, "\(after)")
        }

        @Test func aBaseThatVanishedWithoutAUeventIsNotStartedAgainUntilItComesBack() async throws {
            // The base accelerometer is found while nobody generates, then its sysfs goes with no remove event (a
            // driver unbound oddly, an emulation torn down). The switch, turned on by a reload, claims the sensors:
            // the base is found absent once, the switch gives its claim up, and nothing starts the sensors again
            // (no loop of claims and absences) until udev announces the device.
            var convertible = try await Self.switchedOff()
            defer { convertible.daemon.process.terminate() }
            let process = convertible.daemon.process
            let (claims, releases) = (Self.claimLine, Self.releaseLine)
            func count(_ text: String) -> Int {
                process.errorText.split(separator: "\n").filter { $0.contains(text) }.count
            }
            func absences() -> Int {
                process.errorText.split(separator: "\n")
                    .filter { $0.contains("no accelerometer") && !$0.contains("no accelerometer yet") }.count
            }
            #expect(await process.waitUntil("both accelerometers are found") { count("accelerometer found") >= 2 })
            try convertible.testbed.removeDevice(convertible.base.syspath, announce: false)

            try "[Policy]\nAutoRotate=tablet-mode\n".write(
                toFile: convertible.configPath,
                atomically: true,
                encoding: .utf8
            )
            process.signal(SIGHUP)
            #expect(await process.waitUntil("the switch gives its claim up") { count(releases) >= 1 })
            // Settled: the sensors stopped, and the base, not there, no longer named (as on a machine without one).
            var settled: DaemonJSON?
            let deadline = ContinuousClock.now + .seconds(30)
            while settled == nil, ContinuousClock.now < deadline {
                let status = try #require(try await convertible.client.call("status").result)
                if status["sensor"]?["status"]?.string == "stopped", status["base_sensor"] == nil,
                    status["tablet_mode"]?["virtual_switch_keeps_sensors_on"]?.bool == false
                {
                    settled = status
                } else {
                    try await Task.sleep(for: .milliseconds(50))
                }
            }
            #expect(settled != nil, "\(process.report)")
            // And it stays so: each later request finds the sensors stopped, not claimed again in between.
            for _ in 0..<20 {
                let status = try #require(try await convertible.client.call("status").result)
                #expect(status["sensor"]?["status"]?.string == "stopped" && status["base_sensor"] == nil, "\(status)")
                #expect(status["tablet_mode"]?["virtual_switch_keeps_sensors_on"]?.bool == false, "\(status)")
            }
            #expect(count(releases) == 1 && absences() == 1, "\(process.errorText)")

            // The device announced again: found, claimed, read; up to then the sensors stayed stopped.
            _ = try convertible.testbed.add(convertible.base.description, announce: true)
            let reopened = try await convertible.open(to: 100)
            #expect(reopened?["tablet_mode_source"]?.string == "hinge", "\(String(describing: reopened))")
            // One claim as the switch was turned on, one as the base came back; the base absent once.
            #expect(count(claims) == 2, "claims: \(count(claims))\n\(process.errorText)")
            #expect(count(releases) == 1, "releases: \(count(releases))\n\(process.errorText)")
            #expect(absences() == 1, "absences: \(absences())\n\(process.errorText)")
            let status = try #require(try await convertible.client.call("status").result)
            #expect(status["tablet_mode"]?["virtual_switch_keeps_sensors_on"]?.bool == true, "\(status)")
            #expect(status["base_sensor"]?["status"]?.string == "active", "\(status)")
        }

        @Test func aBaseThatIsThereButCannotBeReadIsClaimedAtTheRetryPaceNotInALoop() async throws {
            // The base accelerometer is found, then its raw attributes stop showing a number (a driver in trouble):
            // the device is still there. The switch, turned on by a reload, claims the sensors; the base cannot be
            // read, the switch gives its claim up, and claims again only when the base's retry is due: a second
            // after each of the first four failures, then ten seconds (not at once, in a loop).
            var convertible = try await Self.switchedOff()
            defer { convertible.daemon.process.terminate() }
            let process = convertible.daemon.process
            let (claims, releases) = (Self.claimLine, Self.releaseLine)
            func lines(_ text: String) -> [Substring] {
                process.errorText.split(separator: "\n").filter { $0.contains(text) }
            }
            func count(_ text: String) -> Int { lines(text).count }
            let failures = "the accelerometer cannot be read, retrying"
            #expect(await process.waitUntil("both accelerometers are found") { count("accelerometer found") >= 2 })
            for axis in ["x", "y", "z"] {
                try convertible.testbed.setAttribute(convertible.base.syspath, "in_accel_\(axis)_raw", "?")
            }

            try "[Policy]\nAutoRotate=tablet-mode\n".write(
                toFile: convertible.configPath,
                atomically: true,
                encoding: .utf8
            )
            let reloaded = ContinuousClock.now
            process.signal(SIGHUP)
            #expect(await process.waitUntil("the switch gives its claim up") { count(releases) >= 1 })
            // A few round trips through the loop: the claim is not taken again at once, only once a second at most.
            for _ in 0..<20 {
                _ = try #require(try await convertible.client.call("status").result)
            }
            let seconds = Int((ContinuousClock.now - reloaded).components.seconds)
            #expect(
                count(claims) <= 1 + seconds && count(failures) <= 1 + seconds,
                "claimed in a loop (\(seconds) s):\n\(process.errorText)"
            )

            // The fifth failure in a row is retried after ten seconds: claimed five times, failed five times,
            // released five times, and then left alone.
            #expect(
                await process.waitUntil("the fifth failure") { count(failures) >= 5 && count(releases) >= 5 },
                "\(process.errorText)"
            )
            for _ in 0..<20 {
                let status = try #require(try await convertible.client.call("status").result)
                #expect(status["sensor"]?["status"]?.string == "stopped", "\(status)")
                #expect(status["tablet_mode"]?["virtual_switch_keeps_sensors_on"]?.bool == false, "\(status)")
                #expect(status["base_sensor"]?["status"]?.string == "stopped", "\(status)")
                #expect(status["base_sensor"]?["last_error"]?.string?.contains("accel_x raw") == true, "\(status)")
            }
            let retries = lines(failures).map {
                $0.contains("retry_in=10 s") ? 10 : $0.contains("retry_in=1 s") ? 1 : 0
            }
            #expect(retries == [1, 1, 1, 1, 10], "\(process.errorText)")
            #expect(count(claims) == 5 && count(releases) == 5, "\(process.errorText)")

            // The base reads again: at its next retry it is claimed, read, and the hinge decides.
            for (axis, value) in [("x", "0"), ("y", "0"), ("z", "1000")] {
                try convertible.testbed.setAttribute(convertible.base.syspath, "in_accel_\(axis)_raw", value)
            }
            #expect(await process.waitUntil("the sixth claim") { count(claims) >= 6 })
            let reopened = try await convertible.open(to: 100)
            #expect(reopened?["tablet_mode_source"]?.string == "hinge", "\(String(describing: reopened))")
            #expect(count(claims) == 6 && count(releases) == 5, "\(process.errorText)")
            let status = try #require(try await convertible.client.call("status").result)
            #expect(status["tablet_mode"]?["virtual_switch_keeps_sensors_on"]?.bool == true, "\(status)")
            #expect(status["base_sensor"]?["status"]?.string == "active", "\(status)")
        }

        @Test func withTheSwitchOffAndNobodyGeneratingNothingIsRead() async throws {
            var convertible = try await Self.switchedOff()
            defer { convertible.daemon.process.terminate() }
            let uinput = try #require(convertible.uinput)
            let state = try await convertible.hold(display: Convertible.lid(at: 300), atLeast: .seconds(1)) { _ in true
            }
            #expect(state?["sensor"]?.string == "stopped", "\(String(describing: state))")
            #expect(state?["hinge"]?.isNull == true && state?["tablet_mode"]?.isNull == true)
            let status = try #require(try await convertible.client.call("status").result)
            #expect(status["sensor"]?["status"]?.string == "stopped", "\(status)")
            #expect(status["base_sensor"]?["status"]?.string == "stopped", "\(status)")
            #expect(
                status["sensor"]?["samples_read"]?.integer == 0 && status["base_sensor"]?["samples_read"]?.integer == 0
            )
            #expect(status["tablet_mode"]?["virtual_switch_keeps_sensors_on"]?.bool == false, "\(status)")
            #expect(uinput.records.isEmpty, "\(uinput.records)")
        }

        @Test func nothingIsMadeBeforeADecisionAndARestartMakesItAnew() async throws {
            var convertible = try await Convertible(uinput: true)
            defer { convertible.daemon.process.terminate() }
            let uinput = try #require(convertible.uinput)
            // Generating, both sensors read, the lid on its side: the angle is unknown, nothing decided.
            let side = try await convertible.hold(
                display: AxisValues(x: 1000, y: 0, z: 0),
                base: AxisValues(x: 1000, y: 0, z: 0),
                atLeast: .seconds(1)
            ) { $0["device"]?.string == "portrait" }
            #expect(side?["tablet_mode"]?.isNull == true, "\(String(describing: side))")
            #expect(uinput.records.isEmpty, "no decision, no switch: \(uinput.records)")

            _ = try #require(try await convertible.open(to: 300))
            var records = try await uinput.records { Self.sinceCreation($0) == Self.change(true) }
            #expect(Self.sinceCreation(records) == Self.change(true), "\(records)")

            try await convertible.restart()
            records = uinput.records
            #expect(records.filter { $0 == .destroy }.count == 1 && records.last == .destroy, "\(records)")
            // The hinge's decision is not kept across a restart: no switch until the hinge decides again.
            let before = records.count
            try await Task.sleep(for: .milliseconds(500))
            #expect(uinput.records.count == before, "\(uinput.records)")
            _ = try #require(try await convertible.open(to: 300))
            records = try await uinput.records {
                $0.filter { $0 == .create }.count == 2 && Self.sinceCreation($0).count == 2
            }
            #expect(Self.sinceCreation(records) == Self.change(true), "made anew: \(records)")
        }

        @Test func aRealSwitchMeansNoVirtualOneAndItsOwnDeviceIsNotARealSwitch() async throws {
            var convertible = try await Convertible(uinput: true)
            defer { convertible.daemon.process.terminate() }
            let uinput = try #require(convertible.uinput)
            _ = try #require(try await convertible.open(to: 300))
            _ = try await uinput.records { Self.sinceCreation($0) == Self.change(true) }

            // The device the kernel would show for the virtual switch: the daemon must not read it back.
            let own = TabletSwitchFixture(
                inputNumber: 420,
                eventNumber: 20,
                name: "orientd tablet-mode switch",
                initiallyTablet: true,
                parentPath: "/sys/devices/virtual"
            )
            try own.add(to: convertible.testbed, announce: true)
            // A real switch after it, saying laptop: its uevent comes after the virtual device's.
            let real = TabletSwitchFixture(initiallyTablet: false)
            try real.add(to: convertible.testbed, announce: true)
            let state = try await convertible.hold(display: Convertible.lid(at: 300)) {
                $0["tablet_mode_source"]?.string == "switch"
            }
            #expect(state?["tablet_mode"]?.bool == false, "\(String(describing: state))")
            let switches = try await convertible.client.call("status").result?["tablet_mode"]?["switches"]?.array ?? []
            #expect(switches.map { $0["device"]?.string } == ["/dev/input/event5"], "only the real one: \(switches)")
            let records = try await uinput.records { $0.contains(.destroy) }
            #expect(Array(records.suffix(1)) == [.destroy], "a real switch: the virtual one goes: \(records)")

            // Folded and unfolded with the real switch: no virtual switch again.
            try real.set(tablet: true, on: convertible.testbed)
            _ = try await convertible.hold(display: Convertible.lid(at: 100)) { $0["tablet_mode"]?.bool == true }
            #expect(uinput.records.filter { $0 == .create }.count == 1, "\(uinput.records)")
        }

        @Test func aReloadAppliesTheSettingAtOnce() async throws {
            var convertible = try await Convertible(uinput: true)
            defer { convertible.daemon.process.terminate() }
            let uinput = try #require(convertible.uinput)
            _ = try #require(try await convertible.open(to: 300))
            _ = try await uinput.records { Self.sinceCreation($0) == Self.change(true) }

            try "[Policy]\nAutoRotate=tablet-mode\nVirtualTabletSwitch=no\n"
                .write(toFile: convertible.configPath, atomically: true, encoding: .utf8)
            convertible.daemon.process.signal(SIGHUP)
            var records = try await uinput.records { $0.last == .destroy }
            #expect(records.last == .destroy, "VirtualTabletSwitch=no: \(records)")

            try "[Policy]\nAutoRotate=tablet-mode\n".write(
                toFile: convertible.configPath,
                atomically: true,
                encoding: .utf8
            )
            convertible.daemon.process.signal(SIGHUP)
            records = try await uinput.records {
                $0.filter { $0 == .create }.count == 2 && Self.sinceCreation($0).count == 2
            }
            #expect(Self.sinceCreation(records) == Self.change(true), "back to auto, with the decision: \(records)")
        }

        @Test(arguments: [("no", false), ("auto", false), ("yes", true)])
        func theSettingDecides(setting: String, manualWithoutHinge: Bool) async throws {
            var convertible = try await Convertible(policy: ["VirtualTabletSwitch=\(setting)"], uinput: true)
            defer { convertible.daemon.process.terminate() }
            let uinput = try #require(convertible.uinput)
            _ = try #require(try await convertible.open(to: 300))
            var records = try await uinput.records(within: setting == "no" ? .seconds(1) : .seconds(10)) {
                $0.contains(.create)
            }
            #expect(records.contains(.create) == (setting != "no"), "\(setting): \(records)")

            // Without the base accelerometer only the manual setting decides: `yes` publishes it, `auto` does not.
            try convertible.testbed.removeDevice(convertible.base.syspath, announce: true)
            _ = try await convertible.hold(display: Convertible.lid(at: 300), base: nil) {
                $0["tablet_mode_source"]?.isNull == true
            }
            records = try await uinput.records {
                $0.filter { $0 == .create }.count == $0.filter { $0 == .destroy }.count
            }
            #expect(records.filter { $0 == .create }.count == records.filter { $0 == .destroy }.count, "\(records)")
            #expect(try await convertible.orientctl(["tablet-mode", "on"]).status == .exited(0))
            let creations = records.filter { $0 == .create }.count
            records = try await uinput.records(within: manualWithoutHinge ? .seconds(10) : .seconds(1)) {
                $0.filter { $0 == .create }.count > creations && Self.sinceCreation($0).count >= 2
            }
            let made = records.filter { $0 == .create }.count > creations
            #expect(made == manualWithoutHinge, "\(setting), manual on without a hinge: \(records)")
            if made { #expect(Self.sinceCreation(records) == Self.change(true), "\(records)") }
        }
    }
}
