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
import Testing

/// The real gnome-shell for a test, as a nested Wayland compositor (`gnome-shell --nested --wayland --no-x11`) in
/// a window of an Xorg with the dummy video driver (no display hardware), with orientd's extension installed in
/// the session's home and enabled before the shell starts (a build made by scripts/build-gnome-extension). Run
/// with `--unsafe-mode`, so that the test can hide the overview and move the focus through `org.gnome.Shell.Eval`.
package final class NestedGnomeShell {
    package static let uuid = "app-orientations@orientd"
    package let session: DesktopSession
    package let xorg: ChildProcess
    package let shell: ChildProcess
    /// The shell's Wayland display, in the session's runtime folder.
    package let waylandDisplay = "wayland-orientd"
    private let socket: String

    /// Starts Xorg and gnome-shell and waits until the extension is enabled (at most 90 s on a loaded machine).
    package init(session: DesktopSession, socket: String) async throws {
        self.session = session
        self.socket = socket
        let folder = session.sandbox.directory
        try """
        Section "Device"
            Identifier "dummy"
            Driver "dummy"
            VideoRam 65536
        EndSection
        Section "Monitor"
            Identifier "monitor"
            HorizSync 5.0 - 1000.0
            VertRefresh 5.0 - 200.0
        EndSection
        Section "Screen"
            Identifier "screen"
            Device "dummy"
            Monitor "monitor"
            DefaultDepth 24
            SubSection "Display"
                Depth 24
                Modes "1280x800"
            EndSubSection
        EndSection
        """.write(toFile: folder + "/xorg.conf", atomically: true, encoding: .utf8)
        // -displayfd 1: Xorg picks a free display and writes its number once it accepts clients.
        let xorg = try ChildProcess(
            "Xorg",
            [
                "-displayfd", "1", "-config", folder + "/xorg.conf", "-logfile", folder + "/xorg.log", "-noreset",
                "-nolisten", "tcp",
            ],
            testbed: session.testbed,
            environment: session.environment(socket: socket)
        )
        guard await xorg.waitUntil("Xorg names its display", timeout: .seconds(30), { xorg.outputText.contains("\n") })
        else {
            let log = (try? String(contentsOfFile: folder + "/xorg.log", encoding: .utf8)) ?? ""
            throw DaemonTestError(description: "Xorg (dummy driver) did not start\n\(xorg.report)\n\(log)")
        }
        self.xorg = xorg
        let display = ":" + xorg.outputText.trimmingCharacters(in: .whitespacesAndNewlines)

        // The extension, as the user's own, enabled before the shell starts (it reads the list once).
        let build = try await session.run(
            DesktopPrograms.repository + "/scripts/build-gnome-extension",
            ["auto", session.home + "/.local/share/gnome-shell/extensions/" + Self.uuid],
            socket: socket
        )
        guard build.exitStatus == .exited(0) else { throw DaemonTestError(description: build.report) }
        let settings = session.home + "/.config/glib-2.0/settings"
        try FileManager.default.createDirectory(atPath: settings, withIntermediateDirectories: true)
        try "[org/gnome/shell]\ndisable-user-extensions=false\nenabled-extensions=['\(Self.uuid)']\n"
            .write(toFile: settings + "/keyfile", atomically: true, encoding: .utf8)

        var variables = session.environment(socket: socket)
        variables["DISPLAY"] = display
        shell = try ChildProcess(
            "gnome-shell",
            ["--nested", "--wayland", "--no-x11", "--wayland-display", waylandDisplay, "--unsafe-mode"],
            testbed: session.testbed,
            environment: variables
        )
        var state = ""
        let enabled = await shell.waitUntil("the extension is enabled", timeout: .seconds(90)) {
            // ExtensionState.ENABLED is 1.
            state = (try? self.evalNow("String(Main.extensionManager.lookup('\(Self.uuid)')?.state)")) ?? ""
            return state == "\"1\""
        }
        guard enabled else {
            throw DaemonTestError(description: "the extension is not enabled (state \(state))\n\(shell.report)")
        }
        // The shell starts in the overview, where a new window gets no focus.
        _ = try eval("Main.overview.hide(); 'hidden'")
    }

    deinit {
        shell.terminateAndReap()
        xorg.terminateAndReap()
    }

    /// Runs JavaScript in the shell (`org.gnome.Shell.Eval`) and returns its result as JSON text.
    /// - Throws: when the call fails or the code throws.
    package func eval(_ code: String) throws -> String {
        try evalNow(code)
    }

    private func evalNow(_ code: String) throws -> String {
        let run = session.runNow(
            [
                "gdbus", "call", "--session", "--dest", "org.gnome.Shell", "--object-path", "/org/gnome/Shell",
                "--method", "org.gnome.Shell.Eval", code,
            ],
            socket: socket
        )
        // (true, '"hidden"')
        guard run.status == 0, run.output.hasPrefix("(true, '") else {
            throw DaemonTestError(description: "Eval failed: \(run.output)")
        }
        return String(run.output.dropFirst("(true, '".count).prefix { $0 != "'" })
    }

    /// Activates the window of the app `appID` and waits until it has the focus. The activation is repeated while
    /// the focus does not come (an activation during the overview's closing animation is lost).
    package func focus(appID: String) async throws {
        let activate = """
            const window = global.display.list_all_windows().find(w => w.get_gtk_application_id() === '\(appID)');
            window.activate(global.get_current_time()); 'activated'
            """
        var focused = ""
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            _ = try eval(activate)
            let reached = await poll(timeout: .seconds(1)) {
                focused = (try? self.eval("String(global.display.focus_window?.get_gtk_application_id())")) ?? ""
                return focused == "\"\(appID)\""
            }
            if reached { return }
        }
        throw DaemonTestError(description: "\(appID) did not get the focus: \(focused)")
    }
}
