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
    /// orientd's KWin script in the real KWin (`kwin_wayland --virtual`), with real GTK 4 windows, calling
    /// `orientctl kwin-focus` (started by the session bus from the shipped D-Bus service file), which holds the
    /// active app's mask on orientd on an emulated accelerometer.
    @Suite struct KWinScriptTests {
        @Test(
            .enabled(
                if: DesktopPrograms.canRun(DesktopPrograms.kwin),
                "kwin_wayland and GTK 4 cannot be installed here (no apt-get)"
            )
        )
        func theScriptHoldsTheActiveAppsMaskInTheRealKWin() async throws {
            try DesktopPrograms.require(DesktopPrograms.kwin)
            let rig = try await DesktopRig()
            let (testbed, socket, session) = (rig.testbed, rig.socket, rig.session)
            // The shipped D-Bus service file, pointing at the built orientctl.
            let shipped = try String(
                contentsOfFile: DesktopPrograms.repository + "/systemd/org.orientd.AppFocus.service",
                encoding: .utf8
            )
            let orientctl =
                URL(fileURLWithPath: try ChildProcess.orientdPath()).deletingLastPathComponent().path
                + "/orientctl"
            try shipped.replacingOccurrences(of: "/usr/bin/orientctl", with: orientctl).write(
                toFile: session.servicesDirectory + "/org.orientd.AppFocus.service",
                atomically: true,
                encoding: .utf8
            )
            let kwin = try await VirtualKWin(session: session, socket: socket)
            let context = {
                "session bus (and orientctl kwin-focus):\n\(session.sessionBus.errorText.suffix(4000))\n"
                    + "kwin:\n\(kwin.kwin.errorText.suffix(3000))\norientd:\n\(rig.daemon.process.report)"
            }
            // The shipped KPackage, as a user's own script enabled in kwinrc (the Plasma settings' way).
            try await kwin.enableInstalledScript(
                package: DesktopPrograms.repository + "/desktop/kwin/orientd-app-orientations",
                id: "orientd-app-orientations"
            )
            let display = kwin.waylandDisplay
            var videoWindow: ChildProcess? = try await session.openWindow(
                appID: "org.example.Video",
                title: "Video",
                waylandDisplay: display,
                socket: socket
            )
            let video = DesktopAppRules.landscapeRule(of: "org.example.Video", via: "KDE script")
            let film = DesktopAppRules.landscapeRule(of: "org.example.Film", via: "KDE script")
            await DesktopAppRules.expect(
                video,
                allowed: DesktopAppRules.landscape,
                on: socket,
                "Video active",
                context: context
            )
            let status = try ChildProcess.orientctl(["--socket", socket, "status"], testbed: testbed)
            #expect(await status.wait() == .exited(0), "\(status.report)")
            #expect(
                status.outputLines.contains {
                    $0.hasPrefix("  landscape-left,landscape-right:") && $0.contains("orientctl (pid ")
                        && $0.hasSuffix("for app org.example.Video (KDE script)")
                },
                "\(status.report)"
            )

            // From Video to Film, both ruled landscape: KWin reports no active window in between, and the
            // constraint must not go and come back: a generating connection sees no `allowed` event.
            let watcher = try rig.daemon.connect()
            _ = try await watcher.call("begin")
            var filmWindow: ChildProcess? = try await session.openWindow(
                appID: "org.example.Film",
                title: "Film",
                waylandDisplay: display,
                socket: socket
            )
            await DesktopAppRules.expect(
                film,
                allowed: DesktopAppRules.landscape,
                on: socket,
                "Film active",
                context: context
            )
            try kwin.activate(title: "Video")
            await DesktopAppRules.expect(
                video,
                allowed: DesktopAppRules.landscape,
                on: socket,
                "Video again",
                context: context
            )
            try kwin.activate(title: "Film")
            await DesktopAppRules.expect(
                film,
                allowed: DesktopAppRules.landscape,
                on: socket,
                "Film again",
                context: context
            )
            _ = try await watcher.call("get")
            watcher.readAvailable()
            let allowedEvents = watcher.inbox.filter { $0.event == "allowed" }
            #expect(allowedEvents.isEmpty, "the constraint went and came back: \(allowedEvents)\n\(context())")
            watcher.close()

            // Another app active: released; the ruled app active again: held.
            let reader = try await session.openWindow(
                appID: "org.example.Reader",
                title: "Reader",
                waylandDisplay: display,
                socket: socket
            )
            await DesktopAppRules.expect(
                nil,
                allowed: DesktopAppRules.all,
                on: socket,
                "Reader active",
                context: context
            )
            try kwin.activate(title: "Video")
            await DesktopAppRules.expect(
                video,
                allowed: DesktopAppRules.landscape,
                on: socket,
                "Video after Reader",
                context: context
            )

            // orientd restarts: held again.
            #expect(await rig.daemon.stop() == .exited(0))
            try await rig.restartDaemon()
            await DesktopAppRules.expect(
                video,
                allowed: DesktopAppRules.landscape,
                on: socket,
                "orientd restarted",
                context: context
            )

            // Every window closed, the ruled app's last: KWin has no active window any more, and the constraint
            // goes once that has lasted a moment.
            reader.terminate()
            _ = await reader.wait()
            filmWindow?.terminate()
            _ = await filmWindow?.wait()
            filmWindow = nil
            await DesktopAppRules.expect(
                video,
                allowed: DesktopAppRules.landscape,
                on: socket,
                "Film closed",
                context: context
            )
            videoWindow?.terminate()
            _ = await videoWindow?.wait()
            videoWindow = nil
            await DesktopAppRules.expect(
                nil,
                allowed: DesktopAppRules.all,
                on: socket,
                "every window closed",
                context: context
            )
            #expect(
                session.sessionBus.errorText.contains("orientctl: org.example.Video has the focus: holding"),
                "\(context())"
            )
        }
    }
}
