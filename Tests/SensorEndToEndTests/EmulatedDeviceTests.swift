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
import Testing

/// The parent of every suite that creates a `Testbed`: serialised, so no two testbeds exist at once (umockdev sets
/// the process-wide `UMOCKDEV_DIR`). `.serialized` applies to every suite nested in it, including those declared in
/// extensions in other files; suites outside it still run in parallel with it.
@Suite(.serialized) struct EmulatedDeviceTests {}

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
