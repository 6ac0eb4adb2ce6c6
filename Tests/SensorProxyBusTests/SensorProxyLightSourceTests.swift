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
    /// The light sensors that are not a polled IIO attribute: Apple's SMC (the `applesmc` platform device's `light`)
    /// and the buffer of `acpi-als`, emulated as the kernel shows them, served with `[DBus] Compat=yes` and checked
    /// with iio-sensor-proxy's `monitor-sensor` on a private system bus.
    @Suite struct SensorProxyLightSourceTests {
        typealias Setup = SensorProxyLightTests.Setup

        /// iio-sensor-proxy's level of an SMC reading (divided in single precision, as it divides).
        static func smcLevel(_ left: Int, _ right: Int) -> Double {
            Double(Float(max(left, right)) / 255) * 100
        }

        /// The level as `monitor-sensor` prints it.
        static func printed(_ level: Double) -> String { String(format: "%f", level) }

        @Test func appleSMCIsAVendorLevelReadOnlyWhileClaimed() async throws {
            let smc = AppleSMCFixture(light: "(12,34)")
            let setup = try await Setup(devices: [], others: [smc.description])
            #expect(try await setup.bus.property("HasAmbientLight", testbed: setup.testbed) == "<true>")
            // As iio-sensor-proxy's, the unit is the readings': `lux` until the first one.
            #expect(try await setup.bus.property("LightLevelUnit", testbed: setup.testbed) == "<'lux'>")

            // Nobody claims: nothing is read.
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await setup.lightLevel() == 0, "read without a claim\n\(setup.report)")
            #expect(!setup.daemon.process.errorText.contains("sensor started"), "\(setup.report)")

            // The claim is answered with the first reading: the brighter sensor, 34 of 255, as a percentage.
            let client = try BusClient(address: setup.bus.address)
            try client.call("ClaimLight")
            let first = try #require(try await setup.lightLevel())
            #expect(first == Self.smcLevel(12, 34), "\(setup.report)")
            #expect(try await setup.bus.property("LightLevelUnit", testbed: setup.testbed) == "<'vendor'>")

            let monitor = try setup.bus.start("monitor-sensor", ["--light"], testbed: setup.testbed, user: 65534)
            #expect(
                await monitor.waitUntil("it sees the SMC") {
                    monitor.outputText.contains(
                        "=== Has ambient light sensor (value: \(Self.printed(Self.smcLevel(12, 34))), unit: vendor)"
                    )
                },
                "\(monitor.report)"
            )
            // A change is read at the next poll (every 0.4 s while claimed).
            try setup.testbed.replaceAttribute(smc.lightSyspath, "light", "(200,51)")
            #expect(
                await monitor.waitUntil("monitor-sensor prints the new level", timeout: .seconds(20)) {
                    monitor.outputLines.contains {
                        $0.contains("Light changed: \(Self.printed(Self.smcLevel(200, 51))) (vendor)")
                    }
                },
                "\(monitor.report)\n\(setup.report)"
            )

            // A reading that is not (left,right) is reported once and serves nothing: the level stays.
            try setup.testbed.replaceAttribute(smc.lightSyspath, "light", "(200;51)")
            #expect(
                await setup.daemon.process.waitUntil("the daemon reports the bad reading", timeout: .seconds(20)) {
                    setup.daemon.process.errorText.contains("is not (left,right)")
                },
                "\(setup.report)"
            )
            let level = try #require(try await setup.lightLevel())
            #expect(level == Self.smcLevel(200, 51), "\(setup.report)")

            // Released by both: the timer is gone.
            try client.call("ReleaseLight")
            kill(monitor.pid, SIGKILL)
            #expect(await monitor.wait() == .signalled(SIGKILL))
            try await setup.waitForClaimants(0)
            #expect(
                await setup.daemon.process.waitUntil("the sensor stops") {
                    setup.daemon.process.errorText.contains("sensor stopped")
                },
                "\(setup.report)"
            )

            // Unloaded and loaded again (hotplug of the platform device).
            try setup.testbed.removeDevice(smc.syspath + "/hwmon/hwmon0")
            try setup.testbed.removeDevice(smc.syspath, announce: true)
            try await setup.bus.waitForProperty(
                "HasAmbientLight",
                "<false>",
                testbed: setup.testbed,
                context: setup.report
            )
            try setup.testbed.add(AppleSMCFixture(light: "(90,7)").description, announce: true)
            try await setup.bus.waitForProperty(
                "HasAmbientLight",
                "<true>",
                testbed: setup.testbed,
                context: setup.report
            )
            try client.call("ClaimLight")
            let again = try #require(try await setup.lightLevel())
            #expect(again == Self.smcLevel(90, 7), "\(setup.report)")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func anSMCLightOnItsHwmonDeviceIsReadToo() async throws {
            // Where iio-sensor-proxy's udev rule looks for it (`SUBSYSTEM=="hwmon", TEST=="light"`).
            let smc = AppleSMCFixture(light: "(0,102)", lightOnHwmon: true)
            let setup = try await Setup(devices: [], others: [smc.description])
            #expect(try await setup.bus.property("HasAmbientLight", testbed: setup.testbed) == "<true>")
            let client = try BusClient(address: setup.bus.address)
            try client.call("ClaimLight")
            #expect(try await setup.lightLevel() == Self.smcLevel(0, 102), "102 of 255\n\(setup.report)")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func acpiALSIsReadThroughItsBufferWhileClaimed() async throws {
            let als = PolledSensorFixture.acpiALS(illuminance: 150)
            let setup = try await Setup(devices: [als])
            #expect(try await setup.bus.property("HasAmbientLight", testbed: setup.testbed) == "<true>")
            #expect(try await setup.bus.property("LightLevelUnit", testbed: setup.testbed) == "<'lux'>")
            // Nobody claims: the buffer is left alone.
            #expect(try setup.testbed.attribute(als.syspath, "buffer/enable") == "0")
            #expect(try setup.testbed.attribute(als.syspath, "trigger/current_trigger") == "")

            // The claim is answered with a first reading of the attribute; the buffer is then enabled with only the
            // illuminance and the device's own trigger.
            let client = try BusClient(address: setup.bus.address)
            try client.call("ClaimLight")
            #expect(try await setup.lightLevel() == 150, "\(setup.report)")
            #expect(try setup.testbed.attribute(als.syspath, "buffer/enable") == "1", "\(setup.report)")
            #expect(try setup.testbed.attribute(als.syspath, "scan_elements/in_illuminance_en") == "1")
            #expect(try setup.testbed.attribute(als.syspath, "scan_elements/in_timestamp_en") == "0")
            #expect(try setup.testbed.attribute(als.syspath, "trigger/current_trigger") == "acpi-als-dev0")

            let monitor = try setup.bus.start("monitor-sensor", ["--light"], testbed: setup.testbed, user: 65534)
            #expect(
                await monitor.waitUntil("it sees the light sensor") {
                    monitor.outputText.contains("=== Has ambient light sensor (value: 150.000000, unit: lux)")
                },
                "\(monitor.report)"
            )
            try await setup.waitForClaimants(2)
            // The attribute stays at 150: every level below comes from the scans the kernel pushes. Of the scans of
            // one wake-up, the last is the light now; a scan split across two writes is joined.
            try setup.testbed.write(PolledSensorFixture.acpiALSScan(420), to: als.deviceNode)
            #expect(
                await monitor.waitUntil("monitor-sensor prints 420 lux", timeout: .seconds(10)) {
                    monitor.outputLines.contains { $0.contains("Light changed: 420.000000 (lux)") }
                },
                "\(monitor.report)\n\(setup.report)"
            )
            try setup.testbed.write(
                PolledSensorFixture.acpiALSScan(77) + PolledSensorFixture.acpiALSScan(1234),
                to: als.deviceNode
            )
            try await setup.waitForLightLevel(1234)
            let split = PolledSensorFixture.acpiALSScan(98_765)
            try setup.testbed.write(Array(split.prefix(2)), to: als.deviceNode)
            try await Task.sleep(for: .milliseconds(200))
            try setup.testbed.write(Array(split.suffix(2)), to: als.deviceNode)
            try await setup.waitForLightLevel(98_765)
            #expect(
                !monitor.outputLines.contains { $0.contains("Light changed: 77.000000") },
                "only the last scan of a wake-up is served\n\(monitor.report)"
            )
            #expect(try setup.testbed.attribute(als.syspath, "in_illuminance_input") == "150")

            // Released by both: the device is as it was.
            try client.call("ReleaseLight")
            kill(monitor.pid, SIGKILL)
            #expect(await monitor.wait() == .signalled(SIGKILL))
            try await setup.waitForClaimants(0)
            #expect(
                await setup.daemon.process.waitUntil("the buffer is put back") {
                    (try? setup.testbed.attribute(als.syspath, "buffer/enable")) == "0"
                },
                "\(setup.report)"
            )
            #expect(try setup.testbed.attribute(als.syspath, "scan_elements/in_illuminance_en") == "0")
            #expect(try setup.testbed.attribute(als.syspath, "trigger/current_trigger") == "")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func acpiALSIsPolledWhenItsBufferCannotBeSetUp() async throws {
            // `buffer/enable` a folder: the buffer is there but cannot be enabled.
            var als = PolledSensorFixture.acpiALS(illuminance: 150)
            als.attributes = als.attributes.map { $0.0 == "buffer/enable" ? ("buffer/enable/unwritable", "0") : $0 }
            let setup = try await Setup(devices: [als])
            let client = try BusClient(address: setup.bus.address)
            try client.call("ClaimLight")
            #expect(try await setup.lightLevel() == 150, "\(setup.report)")
            #expect(
                setup.daemon.process.errorText.contains("the sensor's buffer cannot be read: polling it instead"),
                "\(setup.report)"
            )
            // Polled: a new value of the attribute is read, and the trigger was put back.
            try setup.testbed.replaceAttribute(als.syspath, "in_illuminance_input", "275")
            try await setup.waitForLightLevel(275)
            #expect(try setup.testbed.attribute(als.syspath, "trigger/current_trigger") == "")
            #expect(try setup.testbed.attribute(als.syspath, "scan_elements/in_illuminance_en") == "0")
            #expect(await setup.daemon.stop() == .exited(0))
        }
    }
}
