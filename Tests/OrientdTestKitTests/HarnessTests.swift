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

import Glibc
import OrientdTestKit
import Testing

extension EmulatedDeviceTests {
    /// The harness itself: what children get, and how they are stopped.
    @Suite struct HarnessTests {
        @Test func childGetsThePreloadAndTheTestbedExplicitly() async throws {
            let testbed = Testbed()
            let child = try ChildProcess("env", testbed: testbed, environment: ["EXTRA": "1"])
            #expect(await child.wait() == .exited(0), "\(child.report)")
            let lines = Set(child.outputLines)
            #expect(lines.contains("UMOCKDEV_DIR=\(testbed.rootDirectory)"))
            #expect(lines.contains { $0.hasPrefix("LD_PRELOAD=libumockdev-preload.so.0") })
            #expect(lines.contains("EXTRA=1"))
        }

        @Test func orientdRunsUnderThePreload() async throws {
            let child = try ChildProcess.orientd(["--version"], testbed: Testbed())
            #expect(await child.wait() == .exited(0), "\(child.report)")
            #expect(!child.outputText.isEmpty)
        }

        @Test(arguments: [SIGINT, SIGTERM])
        func signalsReachTheChild(signal: Int32) async throws {
            let child = try ChildProcess("sleep", ["600"], testbed: Testbed())
            child.signal(signal)
            #expect(await child.wait() == .signalled(signal))
        }
    }
}
