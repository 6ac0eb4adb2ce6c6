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
    /// `[DBus] Compat=yes` on a machine whose accelerometer belongs to the input subsystem (an emulated lis3lv02d
    /// mounted askew, hwdb's `ACCEL_MOUNT_MATRIX`): iio-sensor-proxy's `monitor-sensor` sees the accelerometer and
    /// follows the turns, and the node is open only while it claims.
    @Suite struct SensorProxyInputAccelerometerTests {
        /// Whether `pid` holds `node` (the emulated evdev node's target) open.
        static func holds(_ pid: pid_t, _ node: String) -> Bool {
            let directory = "/proc/\(pid)/fd"
            return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).contains {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + $0)) == node
            }
        }

        /// Before any claim `AccelerometerOrientation` is `undefined`, as with iio-sensor-proxy 3.9 (test_input_accel):
        /// the node is not even opened. Marked by udev with iio-sensor-proxy's `IIO_SENSOR_PROXY_TYPE=input-accel`
        /// alone, the evdev node is an accelerometer too.
        @Test(arguments: [false, true])
        func theOrientationIsUndefinedBeforeAnyClaim(markedBySensorProxyTypeOnly: Bool) async throws {
            var fixture = InputAccelerometerFixture(mountMatrix: "0, 1, 0; -1, 0, 0; 0, 0, 1")
            let raw = fixture.raw(for: Posture.leftUp.reading)
            fixture.initial = AxisValues(x: Int32(raw.x), y: Int32(raw.y), z: Int32(raw.z))
            fixture.markedBySensorProxyTypeOnly = markedBySensorProxyTypeOnly
            let testbed = Testbed()
            try fixture.add(to: testbed)
            let bus = try await PrivateSystemBus(testbed: testbed)
            let daemon = try await bus.daemon(testbed: testbed, configuration: "[DBus]\nCompat=yes\n")
            let node = try FileManager.default.destinationOfSymbolicLink(
                atPath: testbed.rootDirectory + fixture.deviceNode
            )
            #expect(try await bus.property("HasAccelerometer", testbed: testbed) == "<true>")
            #expect(
                try await bus.property("AccelerometerOrientation", testbed: testbed) == "<'undefined'>",
                "\(daemon.process.report)"
            )
            #expect(!Self.holds(daemon.process.pid, node), "nobody claims: the node is closed")
            #expect(await daemon.stop() == .exited(0))
        }

        /// iio-sensor-proxy 3.9's test_input_accel replays a node that answers only the axes' `EVIOCGABS` (its
        /// recording of its own driver, which asks for nothing else): `undefined` before the claim, the pose once
        /// claimed, read with `EVIOCGABS` at the sensor's rate while claimed and not at all after the release.
        @Test func aNodeThatAnswersOnlyTheAxesIsReadWhileClaimed() async throws {
            var fixture = InputAccelerometerFixture(mountMatrix: "0, 1, 0; -1, 0, 0; 0, 0, 1")
            let raw = fixture.raw(for: Posture.bottomUp.reading)
            fixture.initial = AxisValues(x: Int32(raw.x), y: Int32(raw.y), z: Int32(raw.z))
            fixture.answersAxesOnly = true
            let testbed = Testbed()
            try fixture.add(to: testbed)
            let bus = try await PrivateSystemBus(testbed: testbed)
            let daemon = try await bus.daemon(testbed: testbed, configuration: "[DBus]\nCompat=yes\n")
            let node = try FileManager.default.destinationOfSymbolicLink(
                atPath: testbed.rootDirectory + fixture.deviceNode
            )
            #expect(try await bus.property("HasAccelerometer", testbed: testbed) == "<true>")
            #expect(try await bus.property("AccelerometerOrientation", testbed: testbed) == "<'undefined'>")

            let client = try BusClient(address: bus.address)
            try client.call("ClaimAccelerometer")
            #expect(
                try await bus.property("AccelerometerOrientation", testbed: testbed) == "<'bottom-up'>",
                "\(daemon.process.report)"
            )
            #expect(Self.holds(daemon.process.pid, node), "claimed: the node is open")
            try client.call("ReleaseAccelerometer")
            #expect(
                await daemon.process.waitUntil("the node is closed") { !Self.holds(daemon.process.pid, node) },
                "\(daemon.process.report)"
            )
            #expect(await daemon.stop() == .exited(0))
        }

        @Test func monitorSensorFollowsAnInputAccelerometer() async throws {
            let fixture = InputAccelerometerFixture(mountMatrix: "0, 1, 0; -1, 0, 0; 0, 0, 1")
            let testbed = Testbed()
            try fixture.add(to: testbed)
            let bus = try await PrivateSystemBus(testbed: testbed)
            let daemon = try await bus.daemon(testbed: testbed, configuration: "[DBus]\nCompat=yes\n")
            let node = try FileManager.default.destinationOfSymbolicLink(
                atPath: testbed.rootDirectory + fixture.deviceNode
            )
            let opened = {
                let directory = "/proc/\(daemon.process.pid)/fd"
                return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).contains {
                    (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + $0)) == node
                }
            }
            #expect(try await bus.property("HasAccelerometer", testbed: testbed) == "<true>")
            #expect(!opened(), "nobody claims: the node is closed")

            let monitor = try bus.start("monitor-sensor", [], testbed: testbed)
            #expect(
                await monitor.waitUntil("it sees the accelerometer") {
                    monitor.outputText.contains("=== Has accelerometer")
                }
            )
            #expect(await daemon.process.waitUntil("the node is open") { opened() }, "\(daemon.process.report)")
            for (posture, pose) in [
                (Posture.normal, "normal"), (.leftUp, "left-up"), (.bottomUp, "bottom-up"), (.rightUp, "right-up"),
            ] {
                try await fixture.hold(posture, on: testbed)
                #expect(
                    await monitor.waitUntil("monitor-sensor prints \(pose)") {
                        monitor.outputLines.last?.trimmingCharacters(in: .whitespaces)
                            == "Accelerometer orientation changed: \(pose)"
                    },
                    "\(daemon.process.report)"
                )
            }
            monitor.interrupt()
            #expect(await daemon.process.waitUntil("the node is closed") { !opened() }, "\(daemon.process.report)")
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
