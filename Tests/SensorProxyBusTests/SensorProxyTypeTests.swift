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
    /// iio-sensor-proxy's udev property `IIO_SENSOR_PROXY_TYPE` (set by its rules and by users' local rules) as a
    /// hint beside orientd's own discovery: a platform light marked `hwmon-als` is served whatever its name, a marked
    /// IIO device goes before an unmarked one, and an accelerometer marked for polling alone is polled.
    @Suite struct SensorProxyTypeTests {
        typealias Setup = SensorProxyLightTests.Setup

        /// A platform device with a `light` attribute, `(left,right)`, not Apple's SMC, marked `hwmon-als` or not.
        static func platformLight(_ light: String, marked: Bool) -> (description: String, syspath: String) {
            var lines = ["P: /devices/hwmon-als", "E: SUBSYSTEM=platform"]
            if marked { lines.append("E: IIO_SENSOR_PROXY_TYPE=hwmon-als") }
            lines.append("A: light=\(light)\\n")
            return (lines.joined(separator: "\n") + "\n", "/sys/devices/hwmon-als")
        }

        @Test func aPlatformLightMarkedHwmonALSIsServed() async throws {
            let light = Self.platformLight("(128,128)", marked: true)
            let setup = try await Setup(devices: [], others: [light.description])
            #expect(try await setup.bus.property("HasAmbientLight", testbed: setup.testbed) == "<true>")
            #expect(try await setup.bus.property("HasAccelerometer", testbed: setup.testbed) == "<false>")
            // As iio-sensor-proxy's, the unit is the readings': `lux` until the first one.
            #expect(try await setup.bus.property("LightLevelUnit", testbed: setup.testbed) == "<'lux'>")
            #expect(try await setup.lightLevel() == 0, "nothing is read before a claim")

            let client = try BusClient(address: setup.bus.address)
            try client.call("ClaimLight")
            #expect(try await setup.bus.property("LightLevelUnit", testbed: setup.testbed) == "<'vendor'>")
            // iio-sensor-proxy's level: the brighter of the two / 255 × 100.
            #expect(try await setup.lightLevel() == SensorProxyLightSourceTests.smcLevel(128, 128), "\(setup.report)")
            // iio-sensor-proxy 3.9's test_hwmon_light: a change is shown at the next poll (every 0.4 s while
            // claimed), waited for here as an event.
            try setup.testbed.replaceAttribute(light.syspath, "light", "(255,255)")
            try await setup.waitForLightLevel(100)
            try client.call("ReleaseLight")
            try await setup.waitForClaimants(0)
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func anUnmarkedPlatformLightIsNotASensor() async throws {
            let setup = try await Setup(
                devices: [],
                others: [Self.platformLight("(128,128)", marked: false).description]
            )
            #expect(try await setup.bus.property("HasAmbientLight", testbed: setup.testbed) == "<false>")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func aMarkedIIOLightGoesBeforeAnUnmarkedOne() async throws {
            // Unmarked, the hub's sensor would be served: its sysfs path comes first.
            let hub = PolledSensorFixture.hidSensorALS(raw: 1000)
            var lux = PolledSensorFixture.luxSensor(input: "321")
            lux.properties.append(("IIO_SENSOR_PROXY_TYPE", "iio-poll-als"))
            #expect(hub.syspath < lux.syspath)
            let setup = try await Setup(devices: [hub, lux])
            let client = try BusClient(address: setup.bus.address)
            try client.call("ClaimLight")
            #expect(try await setup.lightLevel() == 321, "\(setup.report)")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func anAccelerometerMarkedForPollingAloneIsPolled() async throws {
            let testbed = Testbed()
            // The device has a buffer (scan elements, a node and a trigger): unmarked, it is read through it.
            var fixture = AccelerometerFixture()
            fixture.extraProperties.append(("IIO_SENSOR_PROXY_TYPE", "iio-poll-accel"))
            try testbed.add(fixture.description)
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox())
            let client = try daemon.connect()
            _ = try await client.call("begin")
            _ = try await client.nextEvent()
            let status = try await client.call("status")
            #expect(status.result?["sensor"]?["mode"]?.string == "poll", "\(status)\n\(daemon.process.report)")
            #expect(daemon.bufferEnable(fixture) != "1", "the buffer is left alone")
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
