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
import OrientClient
import OrientationCore
import OrientdTestKit
import Testing

extension EmulatedDeviceTests {
    /// orientctl and OrientClient against the real daemon: the lines, the exit codes, the reconnect.
    @Suite struct OrientctlEndToEndTests {
        @Test func getLockStatusUnlockAgainstTheDaemon() async throws {
            let testbed = Testbed()
            let sandbox = try DaemonSandbox()
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            defer { daemon.process.terminate() }
            func run(_ arguments: [String]) async throws -> ChildProcess {
                let child = try ChildProcess.orientctl(["--socket", sandbox.socketPath] + arguments, testbed: testbed)
                await child.wait()
                return child
            }
            let get = try await run(["get", "--no-wait"])
            #expect(get.exitStatus == .exited(0), "\(get.report)")
            #expect(get.outputLines.first == "device=unknown interface=unknown rotation=none lock=none")

            let lock = try await run(["lock", "portrait"])
            #expect(lock.exitStatus == .exited(0), "\(lock.report)")
            #expect(lock.outputLines.first == "device=unknown interface=portrait rotation=90 lock=portrait")

            let masked = try await run(["lock", "landscape"])
            #expect(
                masked.outputLines.first?.hasSuffix("lock=landscape-left,landscape-right") == true,
                "\(masked.report)"
            )

            let status = try await run(["status"])
            #expect(status.exitStatus == .exited(0), "\(status.report)")
            // No accelerometer on this machine: `absent`, though nobody generates (the sensor is stopped).
            #expect(
                status.outputLines.contains { $0.hasPrefix("sensor") && $0.hasSuffix(" absent") },
                "\(status.report)"
            )

            let json = try await run(["--json", "get", "--no-wait"])
            let object = try JSONSerialization.jsonObject(with: Data(json.outputText.utf8)) as? [String: Any]
            #expect(object?["lock"] as? [String] == ["landscape-left", "landscape-right"])

            let unlock = try await run(["unlock"])
            #expect(unlock.outputLines.first?.hasSuffix("lock=none") == true, "\(unlock.report)")

            let refused = try await run(["constrain", "portrait,diagonal"])
            #expect(refused.exitStatus == .exited(2) || refused.exitStatus == .exited(1), "\(refused.report)")
        }

        @Test func getWaitsForTheFirstClassificationAndStopsTheSensor() async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let sandbox = try DaemonSandbox()
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            defer { daemon.process.terminate() }
            let get = try ChildProcess.orientctl(["--socket", sandbox.socketPath, "get"], testbed: testbed)
            #expect(await get.waitUntil("the sensor starts") { daemon.bufferEnable(fixture) == "1" })
            var feed = AccelerometerFeed(fixture: fixture, testbed: testbed)
            try feed.hold(.leftUp)
            #expect(await get.wait() == .exited(0), "\(get.report)")
            #expect(get.outputLines.first == "device=portrait interface=portrait rotation=90 lock=none")
            // get ended its generation: the sensor stops.
            #expect(await daemon.process.waitUntil("the sensor stops") { daemon.bufferEnable(fixture) == "0" })
        }

        @Test func noDaemonIsExitStatus3WithHowToStartIt() async throws {
            let testbed = Testbed()
            let sandbox = try DaemonSandbox()
            let child = try ChildProcess.orientctl(["--socket", sandbox.socketPath, "get"], testbed: testbed)
            #expect(await child.wait() == .exited(3))
            #expect(child.errorText.contains(sandbox.socketPath), "\(child.report)")
            #expect(child.errorText.contains("orientd"), "\(child.report)")
        }

        @Test func aNonControllerIsExitStatus4() async throws {
            let testbed = Testbed()
            let sandbox = try DaemonSandbox()
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            defer { daemon.process.terminate() }
            // nobody: not root, not in the orientd group, no seat session.
            let prefix = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
            let lock = try ChildProcess.orientctl(
                ["--socket", sandbox.socketPath, "lock", "portrait"],
                testbed: testbed,
                prefix: prefix
            )
            #expect(await lock.wait() == .exited(4), "\(lock.report)")
            #expect(lock.errorText.contains("permission-denied"), "\(lock.report)")
            let get = try ChildProcess.orientctl(
                ["--socket", sandbox.socketPath, "get", "--no-wait"],
                testbed: testbed,
                prefix: prefix
            )
            #expect(await get.wait() == .exited(0), "\(get.report)")
        }

        /// The app keeps generating and keeps its constraint across a daemon restart.
        @Test func orientClientResumesAfterTheDaemonRestarts() async throws {
            let testbed = Testbed()
            let sandbox = try DaemonSandbox()
            var daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            let client = OrientClient(
                socketPath: sandbox.socketPath,
                reconnectPolicy: .init(initialDelay: .milliseconds(20), maximumDelay: .milliseconds(200))
            )
            _ = try await client.begin()
            _ = try await client.constrain(.landscape)
            #expect(await daemon.stop() == .exited(0))

            daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            defer { daemon.process.terminate() }
            let observer = try daemon.connect()
            var restored = false
            for _ in 0..<200 {
                let status = try await observer.call("status")
                if status.result?["generation_total"]?.integer == 1,
                    status.result?["state"]?["allowed"]?.strings == ["landscape-left", "landscape-right"]
                {
                    restored = true
                    break
                }
                try await Task.sleep(for: .milliseconds(25))
            }
            #expect(restored, "\(daemon.process.report)")
            await client.close()
        }
    }
}
