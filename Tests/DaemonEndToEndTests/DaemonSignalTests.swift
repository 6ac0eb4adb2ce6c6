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
    /// Reliability, "signals": SIGTERM under load stops cleanly; SIGHUP under load reloads without dropping anyone.
    @Suite struct DaemonSignalTests {
        /// Eight generating connections with requests queued and events unread, scans arriving: on SIGTERM the
        /// daemon exits 0, the device is restored (buffer off, channels off, trigger and sampling frequency as they
        /// were), the socket file is gone and every client sees the connection close. The time to exit is bounded
        /// generously (a test asserts behaviour, not speed).
        @Test(arguments: Reliability.runs)
        func sigtermUnderLoadRestoresTheDeviceAndRemovesTheSocket(run: Int) async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let sandbox = try DaemonSandbox()
            let original = try ["sampling_frequency", "trigger/current_trigger", "scan_elements/in_accel_x_en"].map {
                ($0, try testbed.attribute(fixture.syspath, $0))
            }
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            let clients = try (0..<8).map { _ in try daemon.connect() }
            for client in clients { _ = try await client.call("begin") }
            #expect(await daemon.waitForBufferEnable("1", fixture))
            #expect(try testbed.attribute(fixture.syspath, "scan_elements/in_accel_x_en") == "1")
            var feed = AccelerometerFeed(fixture: fixture, testbed: testbed)
            for posture in [Posture.normal, .leftUp, .bottomUp] { try feed.hold(posture, seconds: 0.6) }
            for client in clients {
                try client.send((0..<50).map { #"{"id": \#($0), "method": "status"}"# + "\n" }.joined())
            }
            try feed.hold(.rightUp, seconds: 2)

            daemon.process.terminate()
            #expect(await daemon.process.wait(timeout: .seconds(20)) == .exited(0), "\(daemon.process.report)")
            #expect(daemon.bufferEnable(fixture) == "0")
            for (name, value) in original {
                #expect(try testbed.attribute(fixture.syspath, name) == value, "\(name) not restored")
            }
            #expect(!FileManager.default.fileExists(atPath: sandbox.socketPath), "SIGTERM left the socket file")
            for client in clients { #expect(await client.waitUntilClosed(), "a client still connected") }
        }

        /// Twenty reloads that switch `Supported=` between landscape and all while eight connections generate and
        /// the device turns: every connection gets every `allowed` event, none is dropped, and SIGTERM still ends
        /// it with 0.
        @Test(arguments: Reliability.runs)
        func sighupUnderLoadReloadsWithoutDroppingAnyone(run: Int) async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let sandbox = try DaemonSandbox()
            let config = sandbox.directory + "/orientd.conf"
            try "[Policy]\nSupported=all\n".write(toFile: config, atomically: true, encoding: .utf8)
            let daemon = try await RunningDaemon(
                testbed: testbed,
                sandbox: sandbox,
                arguments: RunningDaemon.defaultArguments + ["--config", config]
            )
            let clients = try (0..<8).map { _ in try daemon.connect() }
            for client in clients { _ = try await client.call("begin") }
            #expect(await daemon.waitForBufferEnable("1", fixture))
            var feed = AccelerometerFeed(fixture: fixture, testbed: testbed)
            let postures: [Posture] = [.normal, .leftUp, .bottomUp, .rightUp]
            for reload in 0..<20 {
                let landscape = reload % 2 == 0
                try "[Policy]\nSupported=\(landscape ? "landscape" : "all")\n"
                    .write(toFile: config, atomically: true, encoding: .utf8)
                try feed.hold(postures[reload % postures.count], seconds: 0.6)
                for client in clients { try client.send(#"{"id": "load", "method": "status"}"# + "\n") }
                daemon.process.signal(SIGHUP)
                let allowed = landscape ? ["landscape-left", "landscape-right"] : DaemonContract.interfaceOrder
                for client in clients {
                    // Replies to `status` and events of the turn come on the way.
                    var message = try await client.next(timeout: .seconds(10), "the allowed event of reload \(reload)")
                    while message.event != "allowed" || message.state?["allowed"]?.strings != allowed {
                        message = try await client.next(timeout: .seconds(10), "the allowed event of reload \(reload)")
                    }
                }
            }
            let status = try await clients[0].call("status")
            #expect(status.result?["clients"]?.integer == 8, "\(status)")
            #expect(clients.allSatisfy { !$0.closedByDaemon })
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
