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
    /// Claims decided by the real polkitd on the private bus, with the shipped action
    /// (`systemd/net.hadess.SensorProxy.policy`) and a site's rules, as iio-sensor-proxy 3.7 and later have them
    /// decided. uid 65534 (`nobody`) has no session here, so polkit's defaults refuse it.
    @Suite(.enabled(if: PrivatePolkit.unavailable == nil, "\(PrivatePolkit.unavailable ?? "")"))
    struct SensorProxyPolkitTests {
        typealias Setup = SensorProxyTests.Setup

        /// A site's rule that lets `nobody` claim sensors.
        static let allowNobody = """
            polkit.addRule(function(action, subject) {
                if (action.id == "net.hadess.SensorProxy.claim-sensor" && subject.user == "nobody") {
                    return polkit.Result.YES;
                }
            });
            """

        static func claimLightAsNobody(_ setup: Setup) async throws -> ChildProcess {
            try await setup.bus.gdbus(
                ["call"] + SensorProxyTests.destination + ["--method", "net.hadess.SensorProxy.ClaimLight"],
                testbed: setup.testbed,
                user: 65534
            )
        }

        /// orientd's own rules refuse a user without a session who is not in `ClaimUsers=`; the site's polkit rule
        /// allows it, and polkit is asked.
        @Test func aSitesPolkitRuleAllowsAClaim() async throws {
            let setup = try await Setup(polkitRules: Self.allowNobody, claimUsers: "geoclue")
            let claim = try await Self.claimLightAsNobody(setup)
            #expect(claim.exitStatus == .exited(0), "\(claim.report)\n\(setup.report)")
            // gdbus leaves the bus once answered, and its claim with it.
            #expect(setup.daemon.process.errorText.contains("sensor claimed on the bus"), "\(setup.report)")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        /// Without a rule, polkit's defaults refuse a user without an active session: `AccessDenied`, saying polkit
        /// refused and what to do; nothing is claimed. A user of `ClaimUsers=` (a system service) and root may claim
        /// whatever polkit says.
        @Test func polkitsDefaultsRefuseAUserWithoutASession() async throws {
            let setup = try await Setup(polkitRules: "", claimUsers: "geoclue")
            let refused = try await Self.claimLightAsNobody(setup)
            #expect(refused.exitStatus != .exited(0), "\(refused.report)")
            #expect(refused.errorText.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(refused.report)")
            #expect(
                refused.errorText.contains("polkit does not authorize net.hadess.SensorProxy.claim-sensor"),
                "\(refused.report)"
            )
            #expect(refused.errorText.contains("/etc/polkit-1/rules.d"), "the message says what to do")
            let status = try await setup.daemon.connect().call("status")
            #expect(status.result?["bus"]?["clients"]?.array?.isEmpty == true, "\(status)")
            #expect(!setup.daemon.process.errorText.contains("sensor claimed on the bus"), "\(setup.report)")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        /// While polkit takes its time (a site's rule that runs a program: here one that waits for the test), the
        /// claim waits and the daemon serves everyone else: the bus's properties, the control socket.
        @Test func aSlowAnswerBlocksNothingElse() async throws {
            let folder = try DaemonSandbox()
            let fifo = folder.directory + "/answer"
            #expect(mkfifo(fifo, 0o666) == 0)
            chmod(fifo, 0o666)
            let rules = """
                polkit.addRule(function(action, subject) {
                    if (action.id == "net.hadess.SensorProxy.claim-sensor" && subject.user == "nobody") {
                        polkit.spawn(["cat", "\(fifo)"]);
                        return polkit.Result.YES;
                    }
                });
                """
            let setup = try await Setup(polkitRules: rules, claimUsers: "geoclue")
            let claim = try setup.bus.start(
                "gdbus",
                ["call"] + SensorProxyTests.destination + ["--method", "net.hadess.SensorProxy.ClaimLight"],
                testbed: setup.testbed,
                user: 65534
            )
            // polkit's rule runs: its program has the pipe open for reading.
            var writer: Int32 = -1
            let asking = await poll(timeout: .seconds(30)) {
                writer = open(fifo, O_WRONLY | O_NONBLOCK)
                return writer >= 0
            }
            #expect(asking, "polkit's rule did not run\n\(claim.report)\n\(setup.report)")
            // The daemon answers others meanwhile.
            #expect(try await setup.property("HasAccelerometer") == "<true>")
            let status = try await setup.orientctl(["status"])
            #expect(status.exitStatus == .exited(0), "\(status.report)")
            #expect(claim.exitStatus == nil, "the claim was answered before polkit: \(claim.report)")
            _ = write(writer, "y\n", 2)
            close(writer)
            await claim.wait(timeout: .seconds(30))
            #expect(claim.exitStatus == .exited(0), "\(claim.report)\n\(setup.report)")
            #expect(await setup.daemon.stop() == .exited(0))
        }

        /// polkit is asked once for a client, however many sensors it claims (monitor-sensor claims the accelerometer,
        /// the light and the proximity sensor on one connection), and again for the next client; when polkit's rules
        /// change, its `Changed` signal reaches orientd, which then asks again.
        @Test func polkitsAnswerIsKeptPerClient() async throws {
            let rules = """
                polkit.addRule(function(action, subject) {
                    if (action.id == "net.hadess.SensorProxy.claim-sensor" && subject.user == "nobody") {
                        polkit.log("asked about a claim of " + subject.user);
                        return polkit.Result.YES;
                    }
                });
                """
            let setup = try await Setup(
                polkitRules: rules,
                claimUsers: "geoclue",
                arguments: RunningDaemon.defaultArguments + ["--verbose"]
            )
            let polkit = try #require(setup.polkit)
            let daemon = setup.daemon.process
            func asked() -> Int {
                (polkit.process.outputText + polkit.process.errorText)
                    .components(separatedBy: "asked about a claim of nobody").count - 1
            }
            func claimed() -> Int {
                daemon.errorText.split(separator: "\n")
                    .filter { $0.contains("sensor claimed on the bus") && $0.contains("sensor=proximity") }.count
            }
            var monitors: [ChildProcess] = []
            for client in 1...2 {
                monitors.append(try setup.bus.start("monitor-sensor", [], testbed: setup.testbed, user: 65534))
                #expect(await daemon.waitUntil("client \(client) claims its three sensors") { claimed() == client })
                #expect(asked() == client, "\(setup.report)")
            }
            #expect(daemon.errorText.components(separatedBy: "sensor claimed on the bus").count - 1 == 6)

            try (rules + "\n// changed\n").write(
                toFile: polkit.sandbox.directory + "/rules.d/50-test.rules",
                atomically: true,
                encoding: .utf8
            )
            #expect(
                await daemon.waitUntil("polkit's change reaches it") {
                    daemon.errorText.contains("polkit's policy changed")
                }
            )
            for monitor in monitors {
                monitor.terminate()
                await monitor.wait()
            }
            #expect(await setup.daemon.stop() == .exited(0))
        }

        /// Root, and the users of `ClaimUsers=` (a system service without a session, such as geoclue), may claim
        /// whatever polkit's defaults say.
        @Test func rootAndClaimUsersNeedNoPolkit() async throws {
            let setup = try await Setup(polkitRules: "", claimUsers: "nobody")
            let allowed = try await Self.claimLightAsNobody(setup)
            #expect(allowed.exitStatus == .exited(0), "\(allowed.report)\n\(setup.report)")
            let client = try BusClient(address: setup.bus.address)
            try client.call("ClaimLight")
            #expect(await setup.daemon.stop() == .exited(0))
        }
    }
}
