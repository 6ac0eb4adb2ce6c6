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

        /// Right after start, before any claim, `AccelerometerOrientation` is the pose the device is held in, from
        /// the axes' values read once at discovery (EVIOCGABS), as iio-sensor-proxy shows it; the node is closed
        /// again at once, so nothing wakes the daemon for it afterwards. Marked by udev with iio-sensor-proxy's
        /// `IIO_SENSOR_PROXY_TYPE=input-accel` alone, the evdev node is an accelerometer too.
        @Test(arguments: [(Posture.leftUp, "left-up"), (.bottomUp, "bottom-up"), (.normal, "normal")])
        func thePoseIsReadAtDiscoveryBeforeAnyClaim(posture: Posture, pose: String) async throws {
            var fixture = InputAccelerometerFixture(mountMatrix: "0, 1, 0; -1, 0, 0; 0, 0, 1")
            let raw = fixture.raw(for: posture.reading)
            fixture.initial = AxisValues(x: Int32(raw.x), y: Int32(raw.y), z: Int32(raw.z))
            fixture.markedBySensorProxyTypeOnly = posture == .normal
            let testbed = Testbed()
            try fixture.add(to: testbed)
            let bus = try await PrivateSystemBus(testbed: testbed)
            let daemon = try await bus.daemon(testbed: testbed, configuration: "[DBus]\nCompat=yes\n")
            let node = try FileManager.default.destinationOfSymbolicLink(
                atPath: testbed.rootDirectory + fixture.deviceNode
            )
            #expect(try await bus.property("HasAccelerometer", testbed: testbed) == "<true>")
            #expect(
                try await bus.property("AccelerometerOrientation", testbed: testbed) == "<'\(pose)'>",
                "\(daemon.process.report)"
            )
            #expect(!Self.holds(daemon.process.pid, node), "nobody claims: the node is closed again")
            // The socket's state is not changed by it: nobody generates, the device orientation is unknown.
            let state = try await daemon.connect().call("get")
            #expect(state.state?["device"]?.string == "unknown", "\(state)")
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
