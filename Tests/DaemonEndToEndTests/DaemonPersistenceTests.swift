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
    /// The lock on disk (issue 4 "persistence"), and what a graceful stop leaves behind.
    @Suite struct DaemonPersistenceTests {
        @Test func theLockSurvivesARestart() async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let sandbox = try DaemonSandbox()
            var daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            var client = try daemon.connect()
            let locked = try await client.call("lock", #"{"orientation": "portrait"}"#)
            #expect(locked.state?["lock"]?.strings == ["portrait"], "\(locked)")
            #expect(FileManager.default.fileExists(atPath: sandbox.stateFile))
            client.close()
            #expect(await daemon.stop() == .exited(0))
            #expect(!FileManager.default.fileExists(atPath: sandbox.socketPath), "SIGTERM leaves the socket file")

            daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            client = try daemon.connect()
            let restored = try await client.call("get")
            #expect(restored.state?["lock"]?.strings == ["portrait"], "\(restored)\n\(daemon.process.errorText)")
            #expect(restored.state?["allowed"]?.strings == ["portrait"], "\(restored)")
            // ORIENTATION.md: with a lock in force at start, the interface orientation is chosen at once.
            #expect(restored.state?["interface"]?.string == "portrait", "\(restored)")
            DaemonContract.expectTransform(restored.state)

            // Unlocking is saved too.
            let unlocked = try await client.call("unlock")
            #expect(unlocked.state?["lock"]?.isNull == true, "\(unlocked)")
            client.close()
            // SIGINT stops it as gracefully as SIGTERM.
            daemon.process.interrupt()
            #expect(await daemon.process.wait(timeout: .seconds(20)) == .exited(0))
            #expect(!FileManager.default.fileExists(atPath: sandbox.socketPath), "SIGINT leaves the socket file")
            daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            client = try daemon.connect()
            let fresh = try await client.call("get")
            #expect(fresh.state?["lock"]?.isNull == true, "\(fresh)")
            #expect(fresh.state?["allowed"]?.strings == DaemonContract.interfaceOrder, "\(fresh)")
            #expect(await daemon.stop() == .exited(0))
        }

        @Test func aCorruptStateFileIsSetAsideAndTheDaemonStartsUnlocked() async throws {
            let sandbox = try DaemonSandbox()
            try FileManager.default.createDirectory(atPath: sandbox.stateDirectory, withIntermediateDirectories: true)
            let garbage = Data("{\"lock\": [\"portrait\"\u{0}garbage \u{7f}".utf8)
            try garbage.write(to: URL(fileURLWithPath: sandbox.stateFile))

            let testbed = Testbed()
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            let client = try daemon.connect()
            let state = try await client.call("get")
            #expect(state.state?["lock"]?.isNull == true, "\(state)")
            #expect(state.state?["allowed"]?.strings == DaemonContract.interfaceOrder, "\(state)")
            let corrupt = sandbox.stateFile + ".corrupt"
            #expect(FileManager.default.contents(atPath: corrupt) == garbage, "not kept aside as \(corrupt)")

            // The daemon goes on saving.
            let locked = try await client.call("lock", #"{"mask": "landscape"}"#)
            #expect(locked.state?["lock"]?.strings == ["landscape-left", "landscape-right"], "\(locked)")
            let saved = FileManager.default.contents(atPath: sandbox.stateFile).map {
                String(decoding: $0, as: UTF8.self)
            }
            #expect(saved?.contains("landscape-left") == true, "\(saved ?? "no state file")")
            #expect(await daemon.stop() == .exited(0))
            #expect(!FileManager.default.fileExists(atPath: sandbox.socketPath), "SIGTERM leaves the socket file")
        }
    }
}
