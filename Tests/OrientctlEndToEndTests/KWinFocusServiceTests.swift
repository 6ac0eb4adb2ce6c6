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
    /// `orientctl kwin-focus` on a private session bus, told the active window as orientd's KWin script tells it
    /// (`gdbus call` of `org.orientd.AppFocus.Activated`), holding the app's mask on orientd on an emulated
    /// accelerometer.
    @Suite struct KWinFocusServiceTests {
        /// orientd restarts while a rule is held: the service says that it lost orientd, and once orientd is back,
        /// that it holds the rule again, as the GNOME extension says both.
        @Test func itSaysWhenItLosesOrientdAndWhenItHoldsAgain() async throws {
            let rig = try await DesktopRig()
            let (socket, session) = (rig.socket, rig.session)
            let service = try ChildProcess.orientctl(
                ["kwin-focus", "--socket", socket],
                testbed: rig.testbed,
                environment: session.environment(socket: socket)
            )
            defer { service.terminateAndReap() }
            #expect(await service.waitUntil("it serves the bus") { service.errorText.contains("serving") })
            let context = { "kwin-focus:\n\(service.report)\norientd:\n\(rig.daemon.process.report)" }
            let activated = session.runNow(
                [
                    "gdbus", "call", "--session", "--dest", "org.orientd.AppFocus", "--object-path",
                    "/org/orientd/AppFocus", "--method", "org.orientd.AppFocus.Activated", "org.example.Video",
                    "video", "org.example.Video",
                ],
                socket: socket
            )
            #expect(activated.status == 0, "\(activated.output)\n\(activated.errors)")
            let video = DesktopAppRules.landscapeRule(of: "org.example.Video", via: "KDE script")
            await DesktopAppRules.expect(
                video,
                allowed: DesktopAppRules.landscape,
                on: socket,
                "Video active",
                context: context
            )

            #expect(await rig.daemon.stop() == .exited(0))
            #expect(
                await service.waitUntil("it says it lost orientd") {
                    service.errorText.contains("orientctl: lost orientd at \(socket); trying again until it answers")
                }
            )
            #expect(!service.errorText.contains("connected to orientd again"), "\(context())")
            try await rig.restartDaemon()
            #expect(
                await service.waitUntil("it says it holds the rule again") {
                    service.errorText.contains(
                        "orientctl: org.example.Video has the focus: holding landscape-left landscape-right again"
                    )
                }
            )
            #expect(service.errorText.contains("orientctl: connected to orientd again at \(socket)"), "\(context())")
            await DesktopAppRules.expect(
                video,
                allowed: DesktopAppRules.landscape,
                on: socket,
                "orientd restarted",
                context: context
            )
            // Said once per outage.
            #expect(service.errorText.components(separatedBy: "lost orientd").count == 2, "\(context())")
            service.terminate()
            #expect(await service.wait() == .exited(0), "\(context())")
            #expect(await rig.daemon.stop() == .exited(0))
        }
    }
}
