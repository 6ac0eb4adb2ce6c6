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
    /// Who may claim a sensor on the bus: root, the user of an active seat session, and the users of
    /// `[DBus] ClaimUsers=`; anyone else is refused with `AccessDenied`, and nothing is claimed.
    @Suite struct SensorProxyClaimPolicyTests {
        typealias Setup = SensorProxyTests.Setup

        /// `gdbus call` of a claim method as uid 65534 (`nobody`, without a session).
        static func claimAsNobody(_ setup: Setup, _ method: String = "ClaimAccelerometer") async throws -> ChildProcess
        {
            try await setup.bus.gdbus(
                ["call"] + SensorProxyTests.destination + ["--method", "net.hadess.SensorProxy.\(method)"],
                testbed: setup.testbed,
                user: 65534
            )
        }

        @Test func aUserNotListedAndWithoutASessionIsRefused() async throws {
            let setup = try await Setup(claimUsers: "geoclue")
            let refused = try await Self.claimAsNobody(setup)
            #expect(refused.exitStatus != .exited(0), "\(refused.report)")
            #expect(refused.errorText.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(refused.report)")
            #expect(refused.errorText.contains("ClaimUsers="), "the message says what to do\n\(refused.report)")
            #expect(
                await setup.daemon.process.waitUntil("it logs the refusal") {
                    setup.daemon.process.errorText.contains("sensor claim refused")
                        && setup.daemon.process.errorText.contains("65534")
                }
            )
            let light = try await Self.claimAsNobody(setup, "ClaimLight")
            #expect(light.errorText.contains("AccessDenied"), "\(light.report)")
            // Nothing was claimed and the sensor never started.
            #expect(setup.daemon.bufferEnable(setup.fixture) == "0")
            let status = try await setup.daemon.connect().call("status")
            #expect(status.result?["generation_total"]?.integer == 0, "\(status)")
            #expect(status.result?["bus"]?["clients"]?.array?.isEmpty == true, "\(status)")
            #expect(!setup.daemon.process.errorText.contains("sensor claimed on the bus"), "\(setup.report)")
            // A release needs no permission.
            let release = try await setup.bus.gdbus(
                ["call"] + SensorProxyTests.destination + ["--method", "net.hadess.SensorProxy.ReleaseAccelerometer"],
                testbed: setup.testbed,
                user: 65534
            )
            #expect(release.exitStatus == .exited(0), "\(release.report)")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func rootMayClaimWithAnEmptyList() async throws {
            var setup = try await Setup(claimUsers: "")
            let client = try BusClient(address: setup.bus.address)
            try await setup.claimAccelerometer(client)
            try client.call("ReleaseAccelerometer")
            #expect(await setup.daemon.waitForBufferEnable("0", setup.fixture), "\(setup.report)")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func aListedUserMayClaim() async throws {
            let setup = try await Setup(claimUsers: "geoclue nobody")
            // monitor-sensor keeps its claim while it runs.
            let monitor = try setup.bus.start("monitor-sensor", [], testbed: setup.testbed, user: 65534)
            #expect(await setup.daemon.waitForBufferEnable("1", setup.fixture), "\(monitor.report)\n\(setup.report)")
            let status = try await setup.daemon.connect().call("status")
            #expect(status.result?["generation_total"]?.integer == 1, "\(status)")
            monitor.terminate()
            await monitor.wait()
            #expect(await setup.daemon.waitForBufferEnable("0", setup.fixture), "\(setup.report)")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        @Test func aReloadTakesAChangedList() async throws {
            var setup = try await Setup(claimUsers: "")
            let before = try await Self.claimAsNobody(setup)
            #expect(before.errorText.contains("AccessDenied"), "\(before.report)")

            try "[DBus]\nCompat=yes\nClaimUsers=nobody\n".write(
                toFile: setup.daemon.sandbox.directory + "/orientd.conf",
                atomically: true,
                encoding: .utf8
            )
            setup.daemon.process.signal(SIGHUP)
            #expect(
                await setup.daemon.process.waitUntil("it reloads") {
                    setup.daemon.process.errorText.contains("configuration reloaded")
                }
            )
            // Allowed now: the claim starts the sensor and is answered at its first reading.
            let after = try setup.bus.start(
                "gdbus",
                ["call"] + SensorProxyTests.destination + ["--method", "net.hadess.SensorProxy.ClaimAccelerometer"],
                testbed: setup.testbed,
                user: 65534
            )
            #expect(await setup.daemon.waitForBufferEnable("1", setup.fixture), "\(after.report)\n\(setup.report)")
            try setup.feed.hold(.normal)
            await after.wait(timeout: .seconds(30))
            #expect(after.exitStatus == .exited(0), "\(after.report)\n\(setup.report)")
            #expect(await setup.daemon.stop() == .exited(0))
        }
    }
}
