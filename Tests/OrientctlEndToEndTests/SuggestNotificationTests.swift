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
    /// `orientctl follow --suggest` with a real notification server (mako on a headless sway, on a private session
    /// bus), on an emulated accelerometer: a turn under a lock shows a notification with a Rotate action; choosing
    /// it (`makoctl invoke`) moves the lock and sway's output turns; turning back withdraws the notification.
    @Suite struct SuggestNotificationTests {
        @Test func aSuggestionIsANotificationWhoseActionRotates() async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let sandbox = try DaemonSandbox()
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            defer { daemon.process.terminate() }
            let sway = try HeadlessSway()
            let mako = try await HeadlessMako(sway: sway, testbed: testbed)
            var feed = AccelerometerFeed(fixture: fixture, testbed: testbed)
            let socket = sandbox.socketPath

            let follow = try ChildProcess.orientctl(
                ["--socket", socket, "follow", "--suggest", "--backend", "sway", "--output", HeadlessSway.output],
                testbed: testbed,
                environment: mako.clientEnvironment.merging(["XDG_CONFIG_HOME": sandbox.directory + "/config"]) { $1 }
            )
            defer { follow.terminate() }
            guard await follow.waitUntil("the sensor starts", { daemon.bufferEnable(fixture) == "1" }) else {
                throw DaemonTestError(description: "follow did not begin\n\(follow.report)")
            }
            func expectTransform(_ transform: String, _ what: String, line: Int = #line) async {
                let reached = await poll(timeout: .seconds(20)) { sway.transform() == transform }
                #expect(
                    reached,
                    "\(what) (line \(line)): sway shows \(sway.transform() ?? "none"), not \(transform)\n\(follow.report)"
                )
            }
            func orientctl(_ arguments: [String]) async throws -> ChildProcess {
                let child = try ChildProcess.orientctl(["--socket", socket] + arguments, testbed: testbed)
                await child.wait()
                return child
            }

            try feed.hold(.normal)
            await expectTransform("normal", "held in its natural pose")
            let lock = try await orientctl(["lock"])
            #expect(lock.outputLines.first?.hasSuffix("lock=landscape-right") == true, "\(lock.report)")

            // Turned to portrait under the lock: the screen stays, the notification offers to rotate.
            try feed.hold(.leftUp)
            var shown = await mako.waitForNotifications { $0.count == 1 }
            #expect(shown.met, "no notification: \(shown.list)\n\(follow.report)\n\(mako.report)")
            var notification = try #require(shown.list.first)
            #expect(notification.appName == "orientctl")
            #expect(notification.summary == "Rotate to portrait?", "\(notification)")
            #expect(notification.actions["rotate"] == "Rotate", "\(notification)")
            // Portrait from landscape-right is a quarter turn counter-clockwise.
            #expect(notification.icon == "object-rotate-left", "\(notification)")
            #expect(sway.transform() == "normal", "locked: the screen has not turned")
            let get = try await orientctl(["get", "--no-wait"])
            #expect(get.outputLines.first?.hasSuffix(" suggestion=portrait") == true, "\(get.report)")

            // The notification server restarts: the suggestion standing is shown by the new one.
            try await mako.restart()
            shown = await mako.waitForNotifications { $0.count == 1 }
            #expect(shown.met, "not shown again after mako restarted: \(shown.list)\n\(follow.report)")

            // Turned back: withdrawn.
            try feed.hold(.normal)
            let withdrawn = await mako.waitForNotifications { $0.isEmpty }
            #expect(withdrawn.met, "still shown: \(withdrawn.list)\n\(follow.report)")

            // Turned again, and Rotate chosen: the lock moves to portrait and sway turns the output.
            try feed.hold(.leftUp)
            shown = await mako.waitForNotifications { $0.count == 1 }
            notification = try #require(shown.list.first, "not shown again: \(follow.report)")
            let invoked = mako.invoke("rotate", on: notification.id)
            #expect(invoked.status == 0, "makoctl invoke: \(invoked.output)")
            // Portrait on a landscape panel: rotation 90 counter-clockwise, sway's "270" (sway counts clockwise).
            await expectTransform("270", "Rotate chosen")
            let state = try await orientctl(["get", "--no-wait"])
            #expect(
                state.outputLines.first == "device=portrait interface=portrait rotation=90 lock=portrait",
                "the lock stays a lock, now in portrait: \(state.report)"
            )
            let gone = await mako.waitForNotifications { $0.isEmpty }
            #expect(gone.met, "the accepted notification stays: \(gone.list)")

            #expect(follow.exitStatus == nil, "follow ended: \(follow.report)")
            for line in ["suggestion=portrait shown", "suggestion=portrait withdrawn", "suggestion=portrait accepted"] {
                #expect(follow.outputLines.contains(line), "\(line) in \(follow.report)")
            }
            follow.terminate()
            #expect(await follow.wait() == .exited(0), "\(follow.report)")
        }

        /// `orientctl suggest` alone, with a notification server without actions (mako's `actions=0`): it says so
        /// once, shows the notification without a button, withdraws it, and shows no dismissed one again.
        @Test func suggestWithAServerWithoutActionsTellsOnceAndStillShows() async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let sandbox = try DaemonSandbox()
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            defer { daemon.process.terminate() }
            let sway = try HeadlessSway()
            let mako = try await HeadlessMako(sway: sway, testbed: testbed, configuration: "actions=0\n")
            var feed = AccelerometerFeed(fixture: fixture, testbed: testbed)
            let suggest = try ChildProcess.orientctl(
                ["--socket", sandbox.socketPath, "suggest"],
                testbed: testbed,
                environment: mako.clientEnvironment
            )
            defer { suggest.terminate() }
            guard await suggest.waitUntil("the sensor starts", { daemon.bufferEnable(fixture) == "1" }) else {
                throw DaemonTestError(description: "suggest did not begin\n\(suggest.report)")
            }
            func orientctl(_ arguments: [String]) async throws -> ChildProcess {
                let child = try ChildProcess.orientctl(["--socket", sandbox.socketPath] + arguments, testbed: testbed)
                await child.wait()
                return child
            }
            let lock = try await orientctl(["lock", "landscape-right"])
            #expect(lock.exitStatus == .exited(0), "\(lock.report)")

            try feed.hold(.leftUp)
            var shown = await mako.waitForNotifications { $0.count == 1 }
            var notification = try #require(shown.list.first, "not shown: \(suggest.report)\n\(mako.report)")
            #expect(notification.actions.isEmpty, "\(notification)")
            #expect(notification.body.contains("'orientctl rotate'"), "\(notification)")
            let noActions = "shows no actions"
            #expect(suggest.errorText.contains(noActions), "\(suggest.report)")

            // Withdrawn when turned back; shown again on the next turn, and said only once.
            try feed.hold(.normal)
            #expect(await mako.waitForNotifications { $0.isEmpty }.met, "\(suggest.report)")
            try feed.hold(.leftUp)
            shown = await mako.waitForNotifications { $0.count == 1 }
            notification = try #require(shown.list.first, "not shown again: \(suggest.report)")
            #expect(suggest.errorText.components(separatedBy: noActions).count == 2, "\(suggest.report)")

            // Dismissed by hand: it stays away; the next suggestion is shown.
            let dismissed = mako.dismiss(notification.id)
            #expect(dismissed.status == 0, "\(dismissed.output)")
            #expect(await mako.waitForNotifications { $0.isEmpty }.met)
            try feed.hold(.rightUp)
            shown = await mako.waitForNotifications { $0.count == 1 }
            notification = try #require(shown.list.first, "the next suggestion is not shown: \(suggest.report)")
            #expect(notification.summary == "Rotate to portrait upside down?", "\(notification)")
            #expect(notification.icon == "object-rotate-right", "a quarter turn clockwise: \(notification)")

            // Accepted from a key: the notification goes.
            let rotate = try await orientctl(["rotate"])
            #expect(rotate.exitStatus == .exited(0), "\(rotate.report)")
            #expect(await mako.waitForNotifications { $0.isEmpty }.met, "\(suggest.report)")
            #expect(
                await suggest.waitUntil("the withdrawal is printed") {
                    suggest.outputLines.contains("suggestion=portrait-upside-down withdrawn")
                },
                "\(suggest.report)"
            )
            #expect(suggest.outputLines.filter { $0 == "suggestion=portrait shown" }.count == 2, "\(suggest.report)")
            suggest.terminate()
            #expect(await suggest.wait() == .exited(0), "\(suggest.report)")
        }

        @Test func rotateAcceptsTheSuggestionOrForcesAnOrientation() async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let sandbox = try DaemonSandbox()
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            defer { daemon.process.terminate() }
            var feed = AccelerometerFeed(fixture: fixture, testbed: testbed)
            func orientctl(_ arguments: [String]) async throws -> ChildProcess {
                let child = try ChildProcess.orientctl(["--socket", sandbox.socketPath] + arguments, testbed: testbed)
                await child.wait()
                return child
            }
            let watch = try ChildProcess.orientctl(["--socket", sandbox.socketPath, "watch"], testbed: testbed)
            defer { watch.terminate() }
            guard await watch.waitUntil("the sensor starts", { daemon.bufferEnable(fixture) == "1" }) else {
                throw DaemonTestError(description: "watch did not begin\n\(watch.report)")
            }
            try feed.hold(.normal)
            #expect(await watch.waitUntil("landscape-right") { watch.outputText.contains("interface=landscape-right") })

            // Unlocked there is nothing to accept: no-suggestion, exit status 1, nothing changed.
            var rotate = try await orientctl(["rotate"])
            #expect(rotate.exitStatus == .exited(1), "\(rotate.report)")
            #expect(rotate.errorText.hasPrefix("orientctl: no-suggestion: "), "\(rotate.report)")
            #expect(rotate.errorText.contains("not locked"), "\(rotate.report)")

            _ = try await orientctl(["lock"])
            try feed.hold(.rightUp)
            #expect(
                await watch.waitUntil("the suggestion") {
                    watch.outputLines.contains(
                        "device=portrait-upside-down interface=landscape-right rotation=0 suggestion=portrait-upside-down"
                    )
                },
                "\(watch.report)"
            )
            var status = try await orientctl(["status"])
            #expect(
                status.outputLines.contains {
                    $0.hasPrefix("suggestion:") && $0.hasSuffix(" portrait-upside-down ('orientctl rotate' locks it)")
                },
                "\(status.report)"
            )
            rotate = try await orientctl(["rotate"])
            #expect(rotate.exitStatus == .exited(0), "\(rotate.report)")
            #expect(
                rotate.outputLines.first
                    == "device=portrait-upside-down interface=portrait-upside-down rotation=270 lock=portrait-upside-down",
                "\(rotate.report)"
            )
            // Accepted, there is none left.
            rotate = try await orientctl(["rotate"])
            #expect(rotate.exitStatus == .exited(1), "\(rotate.report)")

            // With an orientation: a forced rotation, suggestion or not.
            rotate = try await orientctl(["rotate", "landscape-left"])
            #expect(rotate.exitStatus == .exited(0), "\(rotate.report)")
            #expect(rotate.outputLines.first?.hasSuffix("lock=landscape-left") == true, "\(rotate.report)")
            let bad = try await orientctl(["rotate", "sideways"])
            #expect(bad.exitStatus == .exited(2), "\(bad.report)")
            // The lock moved while held upside down: nothing is suggested until the device turns again.
            status = try await orientctl(["status"])
            #expect(
                status.outputLines.contains { $0.hasPrefix("suggestion:") && $0.hasSuffix(" none") },
                "\(status.report)"
            )
            watch.terminate()
            #expect(await watch.wait() == .exited(0), "\(watch.report)")
        }
    }
}
