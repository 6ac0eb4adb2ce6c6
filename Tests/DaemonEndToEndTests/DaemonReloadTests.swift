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
    /// SIGHUP re-reads the configuration (CONFIG.md): a good change applies without dropping a client; a bad
    /// file, or a `Supported=` that leaves nothing allowed, keeps the old configuration and says why.
    @Suite struct DaemonReloadTests {
        @Test func reloadAppliesAGoodChangeAndRefusesABadOne() async throws {
            var rig = try await GeneratingDaemon(configuration: "[Policy]\nSupported=all\n")
            let (daemon, observer, config) = (rig.daemon, rig.client, try #require(rig.configPath))
            var change = try await rig.turn(to: .normal)
            #expect(change.last?.state?["interface"]?.string == "landscape-right", "\(change)")

            // A good change: an `allowed` event to the generating client, which stays connected.
            try "[Policy]\nSupported = landscape\n".write(toFile: config, atomically: true, encoding: .utf8)
            daemon.process.signal(SIGHUP)
            change = try await observer.nextChange(timeout: .seconds(10), "the allowed event of the reload")
            #expect(change.map(\.event) == ["allowed"], "\(change)")
            #expect(change.last?.state?["allowed"]?.strings == ["landscape-left", "landscape-right"], "\(change)")
            #expect(change.last?.state?["interface"]?.string == "landscape-right", "\(change)")
            #expect(!observer.closedByDaemon)
            // The new mask is in force: portrait is not taken.
            change = try await rig.turn(to: .leftUp)
            #expect(change.map(\.event) == ["device"], "\(change)")

            // A bad file: the old configuration stays, the error names the file and line, the daemon serves on.
            try "[Policy]\n\nSupported=sideways\n".write(toFile: config, atomically: true, encoding: .utf8)
            daemon.process.signal(SIGHUP)
            _ = await daemon.process.waitUntil("the reload is refused", timeout: .seconds(10)) {
                daemon.process.errorText.contains("\(config):3: [Policy] Supported=sideways")
            }
            // A refused reload is a warning: the daemon goes on with the old configuration.
            #expect(
                daemon.process.errorText.contains("orientd: warning: configuration not reloaded"),
                "\(daemon.process.errorText)"
            )
            var state = try await observer.call("get").state
            #expect(
                state?["allowed"]?.strings == ["landscape-left", "landscape-right"],
                "\(String(describing: state))"
            )
            #expect(observer.inbox.isEmpty, "\(observer.inbox)")

            // Supported= that leaves nothing allowed with the lock in force is refused like a bad value.
            let lock = try await observer.call("lock", #"{"orientation": "landscape-right"}"#)
            #expect(lock.state?["lock"]?.strings == ["landscape-right"], "\(lock)")
            _ = try await observer.nextChange()
            try "[Policy]\nSupported=portrait\n".write(toFile: config, atomically: true, encoding: .utf8)
            daemon.process.signal(SIGHUP)
            _ = await daemon.process.waitUntil("the empty mask is refused", timeout: .seconds(10)) {
                daemon.process.errorText.contains("\(config):2: [Policy] Supported=portrait")
            }
            state = try await observer.call("get").state
            #expect(state?["allowed"]?.strings == ["landscape-right"], "\(String(describing: state))")
            #expect(observer.inbox.isEmpty, "\(observer.inbox)")
            #expect(!observer.closedByDaemon)
            #expect(await daemon.stop() == .exited(0), "\(daemon.process.report)")
        }

        /// A new `Natural=` that keeps the interface orientation turns the panel another way: an `interface`
        /// event carries the new rotation, so that a client rotates the screen again.
        @Test func aReloadedNaturalOrientationSendsTheNewRotation() async throws {
            let testbed = Testbed()
            let (daemon, config) = try await Self.daemon(
                configuration: "[Policy]\nNatural=landscape\n",
                testbed: testbed
            )
            let observer = try daemon.connect()
            _ = try await observer.call("begin")
            let locked = try await observer.call("lock", #"{"orientation": "portrait"}"#)
            #expect(locked.state?["interface"]?.string == "portrait", "\(locked)")
            #expect(locked.state?["rotation"]?.integer == 90, "\(locked)")
            _ = try await observer.nextChange()

            try "[Policy]\nNatural=portrait\n".write(toFile: config, atomically: true, encoding: .utf8)
            daemon.process.signal(SIGHUP)
            let change = try await observer.nextChange(timeout: .seconds(10), "the interface event of the reload")
            #expect(change.map(\.event) == ["interface"], "\(change)")
            #expect(change.first?.previous == "portrait", "\(change)")
            #expect(change.first?.state?["interface"]?.string == "portrait", "\(change)")
            #expect(change.first?.state?["rotation"]?.integer == 0, "\(change)")
            #expect(change.first?.state?["transform"]?["sway"]?.string == "normal", "\(change)")
            #expect(await daemon.stop() == .exited(0), "\(daemon.process.report)")
        }

        /// A daemon reading `configuration` from a file in its sandbox, and that file's path (to rewrite it).
        private static func daemon(
            configuration: String,
            testbed: Testbed
        ) async throws -> (RunningDaemon, String) {
            let sandbox = try DaemonSandbox()
            let config = sandbox.directory + "/orientd.conf"
            try configuration.write(toFile: config, atomically: true, encoding: .utf8)
            let daemon = try await RunningDaemon(
                testbed: testbed,
                sandbox: sandbox,
                arguments: RunningDaemon.defaultArguments + ["--config", config]
            )
            return (daemon, config)
        }
    }
}
