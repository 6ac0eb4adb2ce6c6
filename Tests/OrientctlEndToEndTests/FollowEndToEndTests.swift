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
import SystemSupport
import Testing

extension EmulatedDeviceTests {
    /// `orientctl follow` on the real daemon: the emulated accelerometer's classifications reach a stand-in
    /// `swaymsg`, and follow carries on across a restart of the daemon.
    @Suite struct FollowEndToEndTests {
        @Test func followAppliesClassificationsAcrossADaemonRestart() async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let sandbox = try DaemonSandbox()
            var daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)

            // A stand-in swaymsg first on PATH that records its arguments, one run per line.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("follow-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let record = folder.appendingPathComponent("record").path
            let script = folder.appendingPathComponent("swaymsg").path
            // Written through a descriptor no child can inherit: a program another suite starts meanwhile
            // would keep it open for writing, and running it would fail with ETXTBSY.
            let descriptor = open(script, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
            try #require(descriptor >= 0)
            let written = Result {
                try FileDescriptor(rawValue: descriptor).writeAll("#!/bin/sh\necho \"$*\" >>'\(record)'\n")
            }
            close(descriptor)
            try written.get()
            func runs() -> [String] {
                ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            }

            let follow = try ChildProcess.orientctl(
                [
                    "--socket", sandbox.socketPath, "follow", "--backend", "sway", "--output", "eDP-1",
                    "--touch", "1267:10780:ELAN_Touchscreen",
                ],
                testbed: testbed,
                environment: [
                    "PATH": folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
                ]
            )
            defer { follow.terminate() }
            #expect(await follow.waitUntil("the sensor starts") { daemon.bufferEnable(fixture) == "1" })
            var feed = AccelerometerFeed(fixture: fixture, testbed: testbed)
            try feed.hold(.leftUp)
            let portrait = ["output eDP-1 transform 270", "input 1267:10780:ELAN_Touchscreen map_to_output eDP-1"]
            #expect(await follow.waitUntil("portrait is applied") { runs() == portrait }, "\(follow.report)")

            // The daemon restarts; follow reconnects and begins again, so the sensor starts again.
            #expect(await daemon.stop() == .exited(0))
            daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            defer { daemon.process.terminate() }
            #expect(await follow.waitUntil("the sensor starts again") { daemon.bufferEnable(fixture) == "1" })
            try feed.hold(.bottomUp)
            let upsideDown = ["output eDP-1 transform 180", "input 1267:10780:ELAN_Touchscreen map_to_output eDP-1"]
            #expect(
                await follow.waitUntil("landscape-left is applied") { runs() == portrait + upsideDown },
                "\(follow.report)\n\(runs())"
            )
            #expect(follow.exitStatus == nil, "follow ended: \(follow.report)")
            // follow prints a change once its commands have finished, a moment after the stand-in recorded them.
            _ = await follow.waitUntil("both changes are printed") { follow.outputLines.count >= 2 }
            #expect(
                follow.outputLines.prefix(2) == [
                    "device=portrait interface=portrait rotation=90",
                    "device=landscape-right interface=landscape-left rotation=180",
                ]
            )
        }
    }
}
