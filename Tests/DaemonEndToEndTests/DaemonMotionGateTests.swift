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
import OrientdTestKit
import Testing

extension EmulatedDeviceTests {
    /// Sensors that can say when they move (a HID sensor hub's `in_accel_hysteresis`, a bmc150's `any-motion`
    /// trigger): still, the daemon closes the gate and the device pushes nothing, so nothing wakes the daemon; the
    /// first scan of a motion brings back the full rate and a turn is decided; a buffer gone silent for good is still
    /// found (a probe through the gate) and polled. The emulated device behaves as the driver does: with the gate
    /// open it pushes a scan at every period of its `sampling_frequency`, closed only when the reading changes.
    @Suite struct DaemonMotionGateTests {
        /// The two drivers emulated.
        enum Driver: String, CaseIterable, Sendable, CustomTestStringConvertible {
            /// hid-sensor-accel-3d with the hub's own hysteresis of 5.
            case hidHub
            /// bmc150 with its data-ready and any-motion triggers.
            case bmc150

            var testDescription: String { rawValue }

            var fixture: AccelerometerFixture {
                var fixture = AccelerometerFixture()
                switch self {
                case .hidHub:
                    fixture.hysteresis = "5"
                case .bmc150:
                    fixture.name = "bmc150_accel"
                    fixture.samplingFrequencyAvailable = "7.810000 15.630000 31.250000 62.500000 125"
                }
                return fixture
            }

            /// The any-motion trigger of the bmc150 (`<name>-any-motion-dev<N>`, as the driver names it).
            static let anyMotionTrigger = "bmc150_accel-any-motion-dev0"

            /// The devices to add: the accelerometer, its data-ready trigger, and the bmc150's any-motion trigger.
            var description: String {
                switch self {
                case .hidHub: return fixture.description
                case .bmc150:
                    return fixture.description
                        + "\nP: /devices/platform/accel-test/trigger1\nE: SUBSYSTEM=iio\nA: name=\(Self.anyMotionTrigger)\\n\n"
                }
            }

            /// Whether the driver holds back the scans of a still device now, as the daemon configured it.
            func gateClosed(_ testbed: Testbed) -> Bool {
                let syspath = fixture.syspath
                switch self {
                case .hidHub:
                    return (try? testbed.attribute(syspath, "in_accel_hysteresis")).flatMap(Double.init) ?? 0 > 0
                case .bmc150:
                    return (try? testbed.attribute(syspath, "trigger/current_trigger")) == Self.anyMotionTrigger
                }
            }
        }

        /// The emulated device: pushes the current reading at every sampling period while the gate is open, and
        /// only a changed reading while it is closed (as the hub's hysteresis and the chip's slope interrupt do).
        struct Device {
            let driver: Driver
            let testbed: Testbed
            let fixture: AccelerometerFixture
            /// The reading it measures now (raw counts).
            var reading = Posture.normal.reading
            private var pushed: AxisValues<Int64>?
            private let start = ContinuousClock.now
            /// Scans pushed so far.
            private(set) var scans = 0

            init(driver: Driver, testbed: Testbed) {
                self.driver = driver
                self.testbed = testbed
                fixture = driver.fixture
            }

            /// Runs the device for `seconds`, or until `condition` holds (looked at after every period).
            mutating func run(seconds: Double, until condition: () -> Bool = { false }) async throws {
                let end = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
                while ContinuousClock.now < end, !condition() {
                    let rate = (try? testbed.attribute(fixture.syspath, "sampling_frequency")).flatMap(Double.init)
                    let enabled = (try? testbed.attribute(fixture.syspath, "buffer/enable")) == "1"
                    if enabled, !driver.gateClosed(testbed) || pushed != reading {
                        let elapsed = ContinuousClock.now - start
                        let nanoseconds =
                            1_000_000_000 + elapsed.components.seconds * 1_000_000_000
                            + elapsed.components.attoseconds / 1_000_000_000
                        try testbed.write(
                            fixture.encodeScans([reading], timestamps: [nanoseconds]),
                            to: fixture.deviceNode
                        )
                        pushed = reading
                        scans += 1
                    }
                    try await Task.sleep(for: .milliseconds(Int(1000 / max(1, min(rate ?? 10, 100)))))
                }
            }
        }

        /// The daemon's context switches so far, every thread summed (voluntary and not): its wake-ups.
        static func wakeUps(_ pid: pid_t) -> Int {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            return tasks.reduce(0) { total, task in
                let status = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8)) ?? ""
                return total
                    + status.split(separator: "\n").reduce(0) { sum, line in
                        guard line.contains("ctxt_switches:") else { return sum }
                        return sum + (Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) ?? 0)
                    }
            }
        }

        /// A daemon generating for one client on `driver`'s emulated device, the device running until the gate
        /// closes (the device still, the daemon settled).
        static func settled(
            _ driver: Driver,
            _ testbed: Testbed,
            arguments: [String] = RunningDaemon.defaultArguments
        ) async throws -> (RunningDaemon, DaemonConnection, Device) {
            try testbed.add(driver.description)
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox(), arguments: arguments)
            let client = try daemon.connect()
            _ = try await client.call("begin")
            #expect(await daemon.waitForBufferEnable("1", driver.fixture))
            var device = Device(driver: driver, testbed: testbed)
            // The gate closes with the buffer off, then the buffer of one scan is enabled.
            try await device.run(seconds: 20) {
                driver.gateClosed(testbed) && daemon.bufferEnable(driver.fixture) == "1"
            }
            #expect(driver.gateClosed(testbed), "still, the gate closes\n\(daemon.process.report)")
            let first = try await client.events(until: "the first orientation") { $0.event == "device" }
            #expect(first.last?.state?["device"]?.string == "landscape-left", "\(first)")
            return (daemon, client, device)
        }

        /// The gate is chosen while still, with a buffer of one scan; once it has, the still device pushes nothing
        /// and the daemon wakes not once in 4 s (its looks are 200 s apart here, and nothing else is timed); a turn is
        /// decided at the full rate; stopping puts back the hysteresis and the trigger the device had.
        @Test(arguments: Driver.allCases)
        func aStillDeviceWakesNobodyAndATurnIsDecided(driver: Driver) async throws {
            let testbed = Testbed()
            let (daemon, client, settledDevice) = try await Self.settled(
                driver,
                testbed,
                arguments: RunningDaemon.defaultArguments + ["--verbose"]
            )
            var device = settledDevice
            let syspath = driver.fixture.syspath
            #expect(try testbed.attribute(syspath, "buffer/watermark") == "1")
            let scansBefore = device.scans
            let before = Self.wakeUps(daemon.process.pid)
            try await device.run(seconds: 4)
            let wakeUps = Self.wakeUps(daemon.process.pid) - before
            #expect(device.scans == scansBefore, "the gate closed, a still device pushes nothing")
            #expect(wakeUps == 0, "still for 4 s: \(wakeUps) wake-ups")

            device.reading = Posture.leftUp.reading
            try await device.run(seconds: 10) { !driver.gateClosed(testbed) }
            #expect(!driver.gateClosed(testbed), "moving, the gate opens")
            let portrait = { (message: DaemonMessage) in
                message.event == "device" && message.state?["device"]?.string == "portrait"
            }
            try await device.run(seconds: 10) {
                client.readAvailable()
                return client.inbox.contains(where: portrait)
            }
            #expect(client.inbox.contains(where: portrait), "\(client.inbox)")
            #expect(await daemon.stop() == .exited(0))
            switch driver {
            case .hidHub: #expect(try testbed.attribute(syspath, "in_accel_hysteresis") == "5")
            case .bmc150: #expect(try testbed.attribute(syspath, "trigger/current_trigger") == "")
            }
        }

        /// A bmc150, whose probe disables and enables the buffer twice to change the trigger: probed at a silent look
        /// once the gate has closed (no probe of this buffer answered yet), then only at every 40th silent look. The looks
        /// after that first probe are counted: the trigger stays, one wake-up each, no re-configuration (a probe's is
        /// about 40 wake-ups under the emulation).
        @Test func aTriggerGatedBufferIsProbedOnceThenOnlyLookedAt() async throws {
            let testbed = Testbed()
            // Looks every 10 s while gated (20 × PollFallbackSec=).
            let (daemon, client, settledDevice) = try await Self.settled(
                .bmc150,
                testbed,
                arguments: ["--rate", "50", "--poll-fallback-sec", "0.5", "--verbose"]
            )
            var device = settledDevice
            let probe = "one let through the motion gate"
            let probes = { daemon.process.errorText.components(separatedBy: probe).count - 1 }
            // A look in the first two (the first may find the last scans of the full pace) probes: the trigger is
            // switched for one scan, then back.
            try await device.run(seconds: 30) { probes() >= 1 }
            #expect(probes() == 1, "the first silent look lets a scan through\n\(daemon.process.report)")
            try await device.run(seconds: 10) {
                Driver.bmc150.gateClosed(testbed) && daemon.bufferEnable(Driver.bmc150.fixture) == "1"
            }
            let scansBefore = device.scans
            let before = Self.wakeUps(daemon.process.pid)
            try await device.run(seconds: 31) { probes() > 1 }
            let wakeUps = Self.wakeUps(daemon.process.pid) - before
            #expect(probes() == 1, "no probe at the next three looks\n\(daemon.process.report)")
            #expect(device.scans == scansBefore, "the gate stayed closed")
            #expect(wakeUps <= 8, "three looks: \(wakeUps) wake-ups")
            // The client generates throughout (the sensor runs while it does).
            withExtendedLifetime(client) {}
            #expect(await daemon.stop() == .exited(0))
        }

        /// A buffer that falls silent for good while gated (the device pushes nothing any more, even through an
        /// open gate): a look finds no sample, lets one scan through, none comes, the buffer is enabled again, stays
        /// silent, and the sensor is polled; a turn is then read from the raw attributes. A buffer none of whose probes
        /// was answered yet is probed at the first silent look, a hub's and a bmc150's alike.
        @Test(arguments: Driver.allCases)
        func aBufferGoneSilentIsFoundAndPolled(driver: Driver) async throws {
            let testbed = Testbed()
            // Looks every 20 s while gated (20 × PollFallbackSec=).
            let (daemon, client, _) = try await Self.settled(
                driver,
                testbed,
                arguments: ["--rate", "50", "--poll-fallback-sec", "1"]
            )
            let found = await daemon.process.waitUntil("polled", timeout: .seconds(60)) {
                daemon.process.errorText.contains("the buffer does not deliver: polling instead")
            }
            #expect(found, "\(daemon.process.report)")
            let syspath = driver.fixture.syspath
            let reading = Posture.leftUp.reading
            try testbed.setAttribute(syspath, "in_accel_x_raw", "\(reading.x)")
            try testbed.setAttribute(syspath, "in_accel_y_raw", "\(reading.y)")
            try testbed.setAttribute(syspath, "in_accel_z_raw", "\(reading.z)")
            let turned = try await client.events(until: "portrait") { $0.state?["device"]?.string == "portrait" }
            #expect(turned.contains { $0.event == "device" }, "\(turned)")
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
