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
    /// `[DBus] Compat=yes` with a proximity sensor and a compass, emulated: near and far with iio-sensor-proxy's
    /// margin (a steady reading above the near level is near, below it far), the heading
    /// on the compass's own object, each read only while claimed.
    @Suite struct SensorProxyProximityCompassTests {
        typealias Setup = SensorProxyLightTests.Setup

        static let compass = [
            "--system", "--dest", "net.hadess.SensorProxy", "--object-path", "/net/hadess/SensorProxy/Compass",
        ]

        /// A property of the compass's object, as gdbus prints it.
        static func compassProperty(_ name: String, setup: Setup) async throws -> String {
            let call = try await setup.bus.gdbus(
                ["call"] + compass + [
                    "--method", "org.freedesktop.DBus.Properties.Get", "net.hadess.SensorProxy.Compass", name,
                ],
                testbed: setup.testbed
            )
            #expect(call.exitStatus == .exited(0), "\(call.report)")
            return String(call.outputText.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst().dropLast(2))
        }

        @Test func aSteadyReadingIsNearAboveTheUdevNearLevelAndFarBelowIt() async throws {
            let sensor = PolledSensorFixture.proximitySensor(raw: 10, nearLevel: 5000, udevNearLevel: 100)
            let setup = try await Setup(devices: [sensor])
            #expect(try await setup.bus.property("HasProximity", testbed: setup.testbed) == "<true>")
            #expect(try await setup.bus.property("ProximityNear", testbed: setup.testbed) == "<false>")
            // Nobody claims: nothing is read.
            try setup.testbed.replaceAttribute(sensor.syspath, "in_proximity_raw", "900")
            try await Task.sleep(for: SensorProxyLightTests.twoPolls)
            #expect(try await setup.bus.property("ProximityNear", testbed: setup.testbed) == "<false>")
            try setup.testbed.replaceAttribute(sensor.syspath, "in_proximity_raw", "10")

            let monitor = try setup.bus.start("monitor-sensor", [], testbed: setup.testbed, user: 65534)
            #expect(
                await monitor.waitUntil("it sees the proximity sensor") {
                    monitor.outputText.contains("=== Has proximity sensor (near: 0)")
                },
                "\(monitor.report)"
            )
            try await setup.waitForClaimants(1)
            let changes = { monitor.outputLines.filter { $0.contains("Proximity value changed") } }
            // The udev level (100) wins over the driver's. A steady reading just above it is near (a phone held to
            // the ear), one just below it far: iio-sensor-proxy's margin only delays a flip by one reading.
            try setup.testbed.replaceAttribute(sensor.syspath, "in_proximity_raw", "109")
            #expect(
                await monitor.waitUntil("near") { changes().last?.contains("changed: 1") == true },
                "\(monitor.outputText)\n\(setup.report)"
            )
            #expect(try await setup.bus.property("ProximityNear", testbed: setup.testbed) == "<true>")
            try setup.testbed.replaceAttribute(sensor.syspath, "in_proximity_raw", "91")
            #expect(
                await monitor.waitUntil("far") { changes().last?.contains("changed: 0") == true },
                "\(monitor.outputText)\n\(setup.report)"
            )
            // Steady readings do not flap: one change each way.
            try await Task.sleep(for: SensorProxyLightTests.twoPolls)
            #expect(changes().count == 2, "\(monitor.outputText)")
            #expect(try await setup.bus.property("ProximityNear", testbed: setup.testbed) == "<false>")

            // The client leaves: the claim goes with it.
            kill(monitor.pid, SIGKILL)
            #expect(await monitor.wait() == .signalled(SIGKILL))
            try await setup.waitForClaimants(0)
            #expect(await setup.daemon.stop() == .exited(0))
        }

        /// The driver's near level; with `in_proximity0_raw`, the channel indexed and its near level shared by type
        /// (`in_proximity_nearlevel`), as in iio-sensor-proxy 3.9's test_iio_poll_proximity0.
        @Test(arguments: ["in_proximity_raw", "in_proximity0_raw"])
        func theDriversNearLevelAndAClaimAnsweredWithTheReading(channel: String) async throws {
            var sensor = PolledSensorFixture.proximitySensor(raw: 500, nearLevel: 200)
            sensor.attributes = sensor.attributes.map { $0.0 == "in_proximity_raw" ? (channel, $0.1) : $0 }
            let setup = try await Setup(devices: [sensor])
            #expect(try await setup.bus.property("HasProximity", testbed: setup.testbed) == "<true>", "\(setup.report)")
            let client = try BusClient(address: setup.bus.address)
            try client.call("ClaimProximity")
            #expect(try await setup.bus.property("ProximityNear", testbed: setup.testbed) == "<true>")
            try setup.testbed.replaceAttribute(sensor.syspath, channel, "30")
            try await setup.bus.waitForProperty(
                "ProximityNear",
                "<false>",
                testbed: setup.testbed,
                context: setup.report
            )
            #expect(try await setup.claimants()[client.uniqueName] == ["proximity"])
            try client.call("ReleaseProximity")
            try await setup.waitForClaimants(0)
            #expect(await setup.daemon.stop() == .exited(0))
        }

        /// iio-sensor-proxy 3.9's test_input_proximity: a proximity sensor of the input subsystem
        /// (`SW_FRONT_PROXIMITY`) whose node answers only `EVIOCGSW`. Served before any claim (far until read), read
        /// through its events while claimed, and closed again once released.
        @Test func aProximitySwitchOfTheInputSubsystem() async throws {
            let sensor = ProximitySwitchFixture(initiallyNear: true)
            let setup = try await SensorProxyInputAccelerometerTests.EvdevSetup(deviceNode: sensor.deviceNode) {
                try sensor.add(to: $0)
            }
            #expect(try await setup.property("HasProximity") == "<true>", "\(setup.report)")
            #expect(try await setup.property("ProximityNear") == "<false>")
            #expect(!setup.isOpen, "nobody claims: the node is closed")

            // The claim is answered with the switch's state, asked when the node opens.
            let client = try BusClient(address: setup.bus.address)
            try client.call("ClaimProximity")
            #expect(try await setup.property("ProximityNear") == "<true>", "\(setup.report)")
            for near in [false, true] {
                try setup.testbed.write(ProximitySwitchFixture.report(near: near), to: sensor.deviceNode)
                try await setup.bus.waitForProperty(
                    "ProximityNear",
                    near ? "<true>" : "<false>",
                    testbed: setup.testbed,
                    context: setup.report
                )
            }
            try client.call("ReleaseProximity")
            await setup.waitUntilClosed()
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func aProximitySensorWithoutANearLevelIsNotServed() async throws {
            let setup = try await Setup(devices: [PolledSensorFixture.proximitySensor(raw: 500)])
            #expect(try await setup.bus.property("HasProximity", testbed: setup.testbed) == "<false>")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func hidSensorMagn3DHeadingOnTheCompassObject() async throws {
            let magn = PolledSensorFixture.hidSensorMagn3D(heading: 900)
            let setup = try await Setup(devices: [magn])
            #expect(try await Self.compassProperty("HasCompass", setup: setup) == "<true>")
            let introspection = try await setup.bus.gdbus(["introspect"] + Self.compass, testbed: setup.testbed)
            for member in [
                "readonly b HasCompass", "readonly d CompassHeading", "ClaimCompass();", "ReleaseCompass();",
            ] {
                #expect(introspection.outputText.contains(member), "\(member) in \(introspection.report)")
            }
            #expect(
                try await Self.compassProperty("CompassHeading", setup: setup) == "<-1.0>",
                "unknown before a claim"
            )

            // monitor-sensor follows the compass only when its user is named geoclue: nss_wrapper names root so.
            let names = try DaemonSandbox()
            try "geoclue:x:0:0:Geoclue:/:/bin/false\n".write(
                toFile: names.directory + "/passwd",
                atomically: true,
                encoding: .utf8
            )
            try "geoclue:x:0:\n".write(toFile: names.directory + "/group", atomically: true, encoding: .utf8)
            let monitor = try ChildProcess(
                "stdbuf",
                ["-oL", "monitor-sensor"],
                testbed: setup.testbed,
                environment: setup.bus.environment.merging([
                    "LD_PRELOAD": "libumockdev-preload.so.0:libnss_wrapper.so",
                    "NSS_WRAPPER_PASSWD": names.directory + "/passwd", "NSS_WRAPPER_GROUP": names.directory + "/group",
                ]) { _, new in new }
            )
            // It reads the heading before it claims (unknown), then hears the first reading.
            #expect(
                await monitor.waitUntil("it sees the compass", timeout: .seconds(8)) {
                    monitor.outputText.contains("=== Has compass (heading: unset)")
                        && monitor.outputLines.contains { $0.contains("Compass heading changed: 90.000000") }
                },
                "\(monitor.report)\n\(setup.report)"
            )
            for (raw, heading) in [(2700, "270.000000"), (1, "0.100000"), (3599, "359.900000")] {
                try setup.testbed.replaceAttribute(magn.syspath, "in_rot_from_north_magnetic_tilt_comp_raw", "\(raw)")
                #expect(
                    await monitor.waitUntil("monitor-sensor prints \(heading)", timeout: .seconds(5)) {
                        monitor.outputLines.contains { $0.contains("Compass heading changed: \(heading)") }
                    },
                    "\(monitor.report)"
                )
            }
            monitor.interrupt()
            await monitor.wait()
            try await setup.waitForClaimants(0)
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func onlyRootAndGeoclueMayClaimTheCompass() async throws {
            let setup = try await Setup(devices: [PolledSensorFixture.hidSensorMagn3D(heading: 450)])
            let denied = try await setup.bus.gdbus(
                ["call"] + Self.compass + ["--method", "net.hadess.SensorProxy.Compass.ClaimCompass"],
                testbed: setup.testbed,
                user: 65534
            )
            #expect(denied.exitStatus != .exited(0), "\(denied.report)")
            #expect(denied.errorText.contains("AccessDenied"), "\(denied.report)")
            #expect(try await setup.claimants().isEmpty)
            let client = try BusClient(address: setup.bus.address)
            try client.call(
                "ClaimCompass",
                interface: "net.hadess.SensorProxy.Compass",
                path: "/net/hadess/SensorProxy/Compass"
            )
            #expect(try await Self.compassProperty("CompassHeading", setup: setup) == "<45.0>")
            #expect(await setup.daemon.stop() == .exited(0))
        }
    }
}
