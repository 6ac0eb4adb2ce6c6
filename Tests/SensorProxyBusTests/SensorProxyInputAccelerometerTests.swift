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
        /// A private bus, and the daemon with `[DBus] Compat=yes` on a testbed holding one emulated evdev device.
        struct EvdevSetup {
            let testbed = Testbed()
            let bus: PrivateSystemBus
            let daemon: RunningDaemon
            /// The emulated node's target, which the daemon's descriptor points at while it holds the node open.
            let node: String

            /// Adds the device (`add`), starts the bus and the daemon.
            init(deviceNode: String, add: (Testbed) throws -> Void) async throws {
                try add(testbed)
                bus = try await PrivateSystemBus(testbed: testbed)
                daemon = try await bus.daemon(testbed: testbed, configuration: "[DBus]\nCompat=yes\n")
                node = try FileManager.default.destinationOfSymbolicLink(atPath: testbed.rootDirectory + deviceNode)
            }

            /// Whether the daemon holds the node open.
            var isOpen: Bool {
                let directory = "/proc/\(daemon.process.pid)/fd"
                return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).contains {
                    (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + $0)) == node
                }
            }

            var report: String { "\(daemon.process.report)\n\(bus.process.report)" }

            /// A property of `net.hadess.SensorProxy`, as gdbus prints it.
            func property(_ name: String) async throws -> String {
                try await bus.property(name, testbed: testbed)
            }

            /// Waits until the daemon has closed the node; records a failure if it does not.
            func waitUntilClosed() async {
                #expect(await daemon.process.waitUntil("the node is closed") { !isOpen }, "\(report)")
            }
        }

        /// The accelerometer held in `posture` (its axes' values when the node opens).
        static func fixture(_ posture: Posture) -> InputAccelerometerFixture {
            var fixture = InputAccelerometerFixture(mountMatrix: "0, 1, 0; -1, 0, 0; 0, 0, 1")
            let raw = fixture.raw(for: posture.reading)
            fixture.initial = AxisValues(x: Int32(raw.x), y: Int32(raw.y), z: Int32(raw.z))
            return fixture
        }

        /// Before any claim `AccelerometerOrientation` is `undefined`, as with iio-sensor-proxy 3.9 (test_input_accel):
        /// the node is not even opened. Marked by udev with iio-sensor-proxy's `IIO_SENSOR_PROXY_TYPE=input-accel`
        /// alone, the evdev node is an accelerometer too.
        @Test(arguments: [false, true])
        func theOrientationIsUndefinedBeforeAnyClaim(markedBySensorProxyTypeOnly: Bool) async throws {
            var fixture = Self.fixture(.leftUp)
            fixture.markedBySensorProxyTypeOnly = markedBySensorProxyTypeOnly
            let setup = try await EvdevSetup(deviceNode: fixture.deviceNode) { try fixture.add(to: $0) }
            #expect(try await setup.property("HasAccelerometer") == "<true>")
            #expect(try await setup.property("AccelerometerOrientation") == "<'undefined'>", "\(setup.report)")
            #expect(!setup.isOpen, "nobody claims: the node is closed")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        /// iio-sensor-proxy 3.9's test_input_accel replays a node that answers only the axes' `EVIOCGABS` (its
        /// recording of its own driver, which asks for nothing else): `undefined` before the claim, the pose once
        /// claimed, read with `EVIOCGABS` at the sensor's rate while claimed and not at all after the release.
        @Test func aNodeThatAnswersOnlyTheAxesIsReadWhileClaimed() async throws {
            var fixture = Self.fixture(.bottomUp)
            fixture.answersAxesOnly = true
            let setup = try await EvdevSetup(deviceNode: fixture.deviceNode) { try fixture.add(to: $0) }
            #expect(try await setup.property("HasAccelerometer") == "<true>")
            #expect(try await setup.property("AccelerometerOrientation") == "<'undefined'>")

            let client = try BusClient(address: setup.bus.address)
            try client.call("ClaimAccelerometer")
            #expect(try await setup.property("AccelerometerOrientation") == "<'bottom-up'>", "\(setup.report)")
            #expect(setup.isOpen, "claimed: the node is open")
            try client.call("ReleaseAccelerometer")
            await setup.waitUntilClosed()
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func monitorSensorFollowsAnInputAccelerometer() async throws {
            let fixture = InputAccelerometerFixture(mountMatrix: "0, 1, 0; -1, 0, 0; 0, 0, 1")
            let setup = try await EvdevSetup(deviceNode: fixture.deviceNode) { try fixture.add(to: $0) }
            #expect(try await setup.property("HasAccelerometer") == "<true>")
            #expect(!setup.isOpen, "nobody claims: the node is closed")

            let monitor = try setup.bus.start("monitor-sensor", [], testbed: setup.testbed)
            #expect(
                await monitor.waitUntil("it sees the accelerometer") {
                    monitor.outputText.contains("=== Has accelerometer")
                }
            )
            #expect(await setup.daemon.process.waitUntil("the node is open") { setup.isOpen }, "\(setup.report)")
            for (posture, pose) in [
                (Posture.normal, "normal"), (.leftUp, "left-up"), (.bottomUp, "bottom-up"), (.rightUp, "right-up"),
            ] {
                try await fixture.hold(posture, on: setup.testbed)
                #expect(
                    await monitor.waitUntil("monitor-sensor prints \(pose)") {
                        monitor.outputLines.last?.trimmingCharacters(in: .whitespaces)
                            == "Accelerometer orientation changed: \(pose)"
                    },
                    "\(setup.report)"
                )
            }
            monitor.interrupt()
            await setup.waitUntilClosed()
            #expect(await setup.daemon.stop() == .exited(0))
        }
    }
}
