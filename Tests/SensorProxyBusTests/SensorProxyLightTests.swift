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
    /// `[DBus] Compat=yes` with the ambient light sensors of real machines, emulated: read only while a bus client
    /// claims the sensor, checked with `gdbus` and iio-sensor-proxy's `monitor-sensor` on a private system bus.
    @Suite struct SensorProxyLightTests {
        /// A daemon with Compat on, on a private bus, over the emulated devices.
        struct Setup {
            let testbed = Testbed()
            let bus: PrivateSystemBus
            let daemon: RunningDaemon

            /// - Parameter others: the descriptions of further devices (a platform device).
            init(devices: [PolledSensorFixture], others: [String] = []) async throws {
                for device in devices { try testbed.add(device.description) }
                for description in others { try testbed.add(description) }
                bus = try await PrivateSystemBus(testbed: testbed)
                daemon = try await bus.daemon(
                    testbed: testbed,
                    configuration: "[DBus]\nCompat=yes\nClaimUsers=nobody\n"
                )
            }

            var report: String { "\(daemon.process.report)\n\(bus.process.report)" }

            /// `LightLevel` as a number.
            func lightLevel() async throws -> Double? {
                Double(try await bus.property("LightLevel", testbed: testbed).dropFirst().dropLast())
            }

            /// Waits until `LightLevel` is `value` (within rounding); records a failure if it does not come.
            @discardableResult
            func waitForLightLevel(
                _ value: Double,
                sourceLocation: SourceLocation = #_sourceLocation
            ) async throws -> Bool {
                let deadline = ContinuousClock.now + .seconds(10)
                var last: Double?
                while ContinuousClock.now < deadline {
                    last = try await lightLevel()
                    if let last, abs(last - value) < 1e-6 { return true }
                    try await Task.sleep(for: .milliseconds(50))
                }
                Issue.record(
                    "LightLevel is \(last.map { "\($0)" } ?? "?"), not \(value)\n\(report)",
                    sourceLocation: sourceLocation
                )
                return false
            }

            /// Waits until `status` lists `count` bus clients; records a failure if it does not.
            @discardableResult
            func waitForClaimants(
                _ count: Int,
                sourceLocation: SourceLocation = #_sourceLocation
            ) async throws -> Bool {
                var last: [String: [String]] = [:]
                for _ in 0..<200 {
                    last = try await claimants()
                    if last.count == count { return true }
                    try await Task.sleep(for: .milliseconds(50))
                }
                Issue.record("bus clients: \(last), not \(count)\n\(report)", sourceLocation: sourceLocation)
                return false
            }

            /// The bus clients `status` lists, with what each claims.
            func claimants() async throws -> [String: [String]] {
                let status = try await daemon.connect().call("status")
                var result: [String: [String]] = [:]
                for client in status.result?["bus"]?["clients"]?.array ?? [] {
                    guard let name = client["name"]?.string else { continue }
                    result[name] = client["claims"]?.array?.compactMap { $0.string } ?? []
                }
                return result
            }
        }

        /// Two poll periods of a light sensor and a little more: long enough for a running sensor to read twice.
        static let twoPolls = Duration.milliseconds(1800)

        @Test func hidSensorALSIsReadOnlyWhileClaimed() async throws {
            let als = PolledSensorFixture.hidSensorALS(raw: 2000)
            let setup = try await Setup(devices: [als])
            let all = try await setup.bus.gdbus(
                ["call"] + SensorProxyTests.destination + [
                    "--method", "org.freedesktop.DBus.Properties.GetAll", "net.hadess.SensorProxy",
                ],
                testbed: setup.testbed
            )
            #expect(all.exitStatus == .exited(0), "\(all.report)")
            for expected in ["'HasAmbientLight': <true>", "'LightLevelUnit': <'lux'>", "'LightLevel': <0.0>"] {
                #expect(all.outputText.contains(expected), "\(expected) in \(all.outputText)")
            }
            // Introspection lists the light sensor's members, each signalling its changes.
            let introspection = try await setup.bus.gdbus(
                ["introspect"] + SensorProxyTests.destination,
                testbed: setup.testbed
            )
            for member in [
                "readonly b HasAmbientLight", "readonly d LightLevel", "readonly s LightLevelUnit", "ClaimLight();",
                "ReleaseLight();", "readonly b ProximityNear", "ClaimProximity();",
            ] {
                #expect(introspection.outputText.contains(member), "\(member) in \(introspection.report)")
            }
            #expect(!introspection.outputText.contains("EmitsChangedSignal"), "\(introspection.report)")

            // Nobody claims: nothing is read.
            try await Task.sleep(for: Self.twoPolls)
            #expect(try await setup.lightLevel() == 0, "read without a claim\n\(setup.report)")

            // A claim is answered once the first reading is in: 2000 counts × 0.1 lux.
            let client = try BusClient(address: setup.bus.address)
            try client.collectPropertyChanges(broadcast: false)
            try client.call("ClaimLight")
            #expect(try await setup.lightLevel() == 200, "\(setup.report)")

            // A desktop claims as its own user; iio-sensor-proxy's client prints each change.
            let monitor = try setup.bus.start("monitor-sensor", [], testbed: setup.testbed, user: 65534)
            #expect(
                await monitor.waitUntil("it sees the light sensor") {
                    monitor.outputText.contains("=== Has ambient light sensor (value: 200.000000, unit: lux)")
                },
                "\(monitor.report)"
            )
            try await setup.waitForClaimants(2)
            for (raw, lux) in [(5000, "500.000000"), (123, "12.300000"), (40_000, "4000.000000")] {
                try setup.testbed.replaceAttribute(als.syspath, "in_illuminance_raw", "\(raw)")
                #expect(
                    await monitor.waitUntil("monitor-sensor prints \(lux) lux") {
                        monitor.outputLines.contains { $0.contains("Light changed: \(lux) (lux)") }
                    },
                    "\(monitor.report)\n\(setup.report)"
                )
            }
            let claimants = try await setup.claimants()
            #expect(claimants[client.uniqueName] == ["light"], "\(claimants)")
            let status = try await setup.daemon.connect().call("status")
            #expect(status.result?["bus"]?["sensors"]?.array?.compactMap { $0.string } == ["light"], "\(status)")
            let text = try ChildProcess.orientctl(
                ["--socket", setup.daemon.sandbox.socketPath, "status"],
                testbed: setup.testbed
            )
            await text.wait()
            #expect(text.outputLines.contains { $0.hasPrefix("  serves:") && $0.hasSuffix(" light") }, "\(text.report)")
            #expect(
                text.outputLines.contains { $0.hasPrefix("  \(client.uniqueName):") && $0.contains(" light (") },
                "\(text.report)"
            )

            // A value that stays the same is not signalled again.
            #expect(
                try await client.waitForPropertyChanges { $0.joined().contains("LightLevel=4000.0") },
                "the 4000 lux signal: \(client.propertyChanges)"
            )
            let before = client.propertyChanges.joined().filter { $0.hasPrefix("LightLevel=") }.count
            try await Task.sleep(for: Self.twoPolls)
            _ = try await client.waitForPropertyChanges(timeout: .zero) { _ in false }
            let after = client.propertyChanges.joined().filter { $0.hasPrefix("LightLevel=") }.count
            #expect(after == before, "\(client.propertyChanges)")

            // The client that leaves the bus takes its claim with it; the other one's keeps the sensor read.
            kill(monitor.pid, SIGKILL)
            #expect(await monitor.wait() == .signalled(SIGKILL))
            try await setup.waitForClaimants(1)
            try setup.testbed.replaceAttribute(als.syspath, "in_illuminance_raw", "3000")
            try await setup.waitForLightLevel(300)

            // Released by the last client: nothing is read any more.
            try client.call("ReleaseLight")
            #expect(try await setup.claimants().isEmpty)
            try setup.testbed.replaceAttribute(als.syspath, "in_illuminance_raw", "7000")
            try await Task.sleep(for: Self.twoPolls)
            #expect(try await setup.lightLevel() == 300, "read after the last release\n\(setup.report)")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        /// A light sensor model, the level its attribute gives, and its unit.
        struct LightModel: Sendable, CustomTestStringConvertible {
            let fixture: PolledSensorFixture
            let attribute: String
            let value: String
            let level: Double
            let unit: String
            var testDescription: String {
                fixture.name + (fixture.hasNode ? (fixture.trigger == nil ? " (buffer, no trigger)" : " (buffer)") : "")
            }
        }

        @Test(arguments: [
            LightModel(
                fixture: .luxSensor(input: "321.5"),
                attribute: "in_illuminance0_input",
                value: "87.25",
                level: 87.25,
                unit: "lux"
            ),
            // acpi-als without a buffer (older kernels), and with a buffer but no trigger: polled.
            LightModel(
                fixture: .acpiALS(illuminance: 150, buffer: false),
                attribute: "in_illuminance_input",
                value: "320",
                level: 320,
                unit: "lux"
            ),
            LightModel(
                fixture: .acpiALS(illuminance: 150, trigger: false),
                attribute: "in_illuminance_input",
                value: "45",
                level: 45,
                unit: "lux"
            ),
            LightModel(
                fixture: .intensitySensor(raw: 42),
                attribute: "in_intensity_clear_raw",
                value: "1000",
                level: 1000,
                unit: "vendor"
            ),
        ])
        func theUnitFollowsTheChannel(model: LightModel) async throws {
            let setup = try await Setup(devices: [model.fixture])
            // As iio-sensor-proxy's, the unit is the readings': `lux` until the first one.
            #expect(try await setup.bus.property("LightLevelUnit", testbed: setup.testbed) == "<'lux'>")
            let client = try BusClient(address: setup.bus.address)
            try client.call("ClaimLight")
            #expect(try await setup.bus.property("LightLevelUnit", testbed: setup.testbed) == "<'\(model.unit)'>")
            let first = model.fixture.attributes.first { $0.0 == model.attribute }.flatMap { Double($0.1) }
            #expect(try await setup.lightLevel() == first, "\(setup.report)")
            try setup.testbed.replaceAttribute(model.fixture.syspath, model.attribute, model.value)
            try await setup.waitForLightLevel(model.level)
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func aLightSensorThatAppearsWhileClaimedIsRead() async throws {
            let setup = try await Setup(devices: [])
            #expect(try await setup.bus.property("HasAmbientLight", testbed: setup.testbed) == "<false>")
            // No sensor: the claim is answered at once, and kept for when one appears.
            let client = try BusClient(address: setup.bus.address)
            try client.call("ClaimLight")
            #expect(try await setup.lightLevel() == 0)
            #expect(
                await setup.daemon.process.waitUntil("its udev monitors listen") { setup.testbed.monitorCount >= 2 }
            )

            let als = PolledSensorFixture.hidSensorALS(raw: 650)
            try setup.testbed.add(als.description, announce: true)
            try await setup.bus.waitForProperty(
                "HasAmbientLight",
                "<true>",
                testbed: setup.testbed,
                context: setup.report
            )
            try await setup.waitForLightLevel(65)
            try setup.testbed.removeDevice(als.syspath, announce: true)
            try await setup.bus.waitForProperty(
                "HasAmbientLight",
                "<false>",
                testbed: setup.testbed,
                context: setup.report
            )
            #expect(try await setup.lightLevel() == 0)
            #expect(await setup.daemon.stop() == .exited(0))
        }
    }
}
