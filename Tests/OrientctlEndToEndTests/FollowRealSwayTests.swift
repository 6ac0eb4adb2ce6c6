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
    /// `orientctl follow --backend sway` on a real headless sway, with real Wayland windows (`foot --app-id`), on
    /// an emulated accelerometer: the output's transform is read back from sway itself.
    @Suite struct FollowRealSwayTests {
        /// A daemon on an emulated accelerometer, a headless sway, and follow between them, with `follow.conf`.
        final class Rig {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            let sandbox: DaemonSandbox
            let daemon: RunningDaemon
            let sway: HeadlessSway
            var feed: AccelerometerFeed
            private(set) var follow: ChildProcess?

            init(followConf: String?) async throws {
                try testbed.add(fixture.description)
                sandbox = try DaemonSandbox()
                daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
                sway = try HeadlessSway()
                feed = AccelerometerFeed(fixture: fixture, testbed: testbed)
                if let followConf {
                    let folder = sandbox.directory + "/config/orientd"
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                    try followConf.write(toFile: folder + "/follow.conf", atomically: true, encoding: .utf8)
                }
            }

            deinit {
                follow?.terminate()
                daemon.process.terminate()
            }

            /// Starts `orientctl follow --backend sway` on this sway and waits until the sensor runs.
            func startFollow() async throws {
                let follow = try ChildProcess.orientctl(
                    ["--socket", sandbox.socketPath, "follow", "--backend", "sway", "--output", HeadlessSway.output],
                    testbed: testbed,
                    environment: sway.clientEnvironment.merging(["XDG_CONFIG_HOME": sandbox.directory + "/config"]) {
                        $1
                    }
                )
                self.follow = follow
                guard await follow.waitUntil("the sensor starts", { daemon.bufferEnable(fixture) == "1" }) else {
                    throw DaemonTestError(description: "follow did not begin")
                }
            }

            /// Waits until sway's own `get_outputs` shows `transform` on the headless output.
            func expectTransform(
                _ transform: String,
                _ what: String,
                sourceLocation: SourceLocation = #_sourceLocation
            ) async {
                let reached = await poll(timeout: .seconds(20)) { sway.transform() == transform }
                #expect(
                    reached,
                    Comment(
                        rawValue: "\(what): sway shows transform \(sway.transform() ?? "none"), not \(transform)\n"
                            + "\(follow?.report ?? "")\nsway log:\n\(sway.log)"
                    ),
                    sourceLocation: sourceLocation
                )
            }
        }

        @Test func followTurnsTheRealSwayOutputWithTheDevice() async throws {
            let rig = try await Rig(followConf: nil)
            #expect(rig.sway.transform() == "normal")
            try await rig.startFollow()
            try rig.feed.hold(.leftUp)
            // Portrait on a landscape panel: rotation 90 counter-clockwise, sway's "270" (sway counts clockwise).
            await rig.expectTransform("270", "held in portrait")
            try rig.feed.hold(.bottomUp)
            await rig.expectTransform("180", "held upside down")
            try rig.feed.hold(.normal)
            await rig.expectTransform("normal", "held in its natural pose")
        }

        @Test func aRuledAppTurnsTheOutputWhileItHasTheFocusAndTheLockWins() async throws {
            let rig = try await Rig(followConf: "[Apps]\nvideo=landscape\n")
            let socket = rig.sandbox.socketPath
            try await rig.sway.openWindow(appID: "video")
            try await rig.sway.openWindow(appID: "other")
            try await rig.startFollow()
            try rig.feed.hold(.leftUp)
            await rig.expectTransform("270", "held in portrait, `other` focused")

            // video supports landscape only: the interface goes to the preferred landscape, rotation 0, while the
            // device stays in portrait.
            try await rig.sway.focus(appID: "video")
            await rig.expectTransform("normal", "video focused")
            let status = try ChildProcess.orientctl(["--socket", socket, "status"], testbed: rig.testbed)
            #expect(await status.wait() == .exited(0), "\(status.report)")
            let follower = try #require(rig.follow)
            #expect(
                status.outputLines.contains {
                    $0.hasPrefix("  landscape-left,landscape-right:")
                        && $0.hasSuffix("orientctl (pid \(follower.pid)) for app video")
                },
                "status names follow and the app: \(status.report)"
            )
            try await rig.sway.focus(appID: "other")
            await rig.expectTransform("270", "other focused again")
            try await rig.sway.focus(appID: "video")
            await rig.expectTransform("normal", "video focused again")

            // Closing the other window leaves video with the focus; closing video, the last one, gives portrait back.
            try await rig.sway.close(appID: "other")
            await rig.expectTransform("normal", "other closed, video focused")
            try await rig.sway.close(appID: "video")
            await rig.expectTransform("270", "video closed")

            // A user lock wins: locked in portrait, video's rule is set aside, and applies once the lock goes.
            let lock = try ChildProcess.orientctl(["--socket", socket, "lock"], testbed: rig.testbed)
            #expect(await lock.wait() == .exited(0), "\(lock.report)")
            #expect(lock.outputLines.first?.hasSuffix("lock=portrait") == true, "\(lock.report)")
            try await rig.sway.openWindow(appID: "video")
            let follow = try #require(rig.follow)
            #expect(
                await follow.waitUntil("the lock is said to win") {
                    follow.errorText.contains("the lock wins over the rule of video (landscape-left landscape-right)")
                }
            )
            #expect(rig.sway.transform() == "270", "the lock holds portrait while video has the focus")
            let unlock = try ChildProcess.orientctl(["--socket", socket, "unlock"], testbed: rig.testbed)
            #expect(await unlock.wait() == .exited(0), "\(unlock.report)")
            await rig.expectTransform("normal", "unlocked with video focused")
            #expect(follow.exitStatus == nil, "follow ended: \(follow.report)")
            #expect(
                follow.errorText.contains("orientctl: video has the focus: holding landscape-left landscape-right"),
                "\(follow.report)"
            )
        }
    }
}
