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

/// The real KWin for a test: `kwin_wayland --virtual` (no display hardware) on the session's buses, run from a plain
/// copy of the binary (the installed one carries a file capability that containers may refuse to execute).
package final class VirtualKWin {
    package let session: DesktopSession
    package let kwin: ChildProcess
    /// KWin's Wayland display, in the session's runtime folder.
    package let waylandDisplay = "wayland-kwin"
    private let socket: String

    /// Starts KWin and waits until it serves `org.kde.KWin` on the session bus (at most 90 s).
    package init(session: DesktopSession, socket: String) async throws {
        self.session = session
        self.socket = socket
        guard let installed = DesktopPrograms.find("kwin_wayland") else {
            throw DaemonTestError(description: "kwin_wayland is not on PATH: run scripts/install-deps (kwin-wayland)")
        }
        let copy = session.sandbox.directory + "/kwin_wayland"
        try FileManager.default.copyItem(atPath: installed, toPath: copy)
        chmod(copy, 0o755)
        kwin = try ChildProcess(
            copy,
            [
                "--virtual", "--socket", waylandDisplay, "--no-lockscreen", "--no-global-shortcuts",
                "--no-kactivities",
            ],
            testbed: session.testbed,
            environment: session.environment(socket: socket)
        )
        var last = ProgramRun.Outcome(status: -1, output: "", errors: "")
        let up = await kwin.waitUntil("KWin serves org.kde.KWin", timeout: .seconds(90)) {
            last = self.call("/KWin", "org.kde.KWin.currentDesktop", [])
            return last.status == 0
        }
        guard up else { throw DaemonTestError(description: "KWin did not start: \(last.errors)\n\(kwin.report)") }
    }

    deinit {
        kwin.terminateAndReap()
    }

    /// Calls a method of KWin on the session bus with gdbus.
    @discardableResult
    package func call(_ path: String, _ method: String, _ arguments: [String]) -> ProgramRun.Outcome {
        session.runNow(
            ["gdbus", "call", "--session", "--dest", "org.kde.KWin", "--object-path", path, "--method", method]
                + arguments,
            socket: socket
        )
    }

    /// Installs a KPackage (a folder with metadata.json and contents/) as the user's own script, enables it in
    /// kwinrc as the Plasma settings do, and asks KWin to reconfigure until the script runs (KWin caches the list
    /// of packages for a while after it starts; at most 60 s).
    package func enableInstalledScript(package folder: String, id: String) async throws {
        let scripts = session.home + "/.local/share/kwin/scripts"
        try FileManager.default.createDirectory(atPath: scripts, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: folder, toPath: scripts + "/" + id)
        try "[Plugins]\n\(id)Enabled=true\n".write(
            toFile: session.home + "/.config/kwinrc",
            atomically: true,
            encoding: .utf8
        )
        var last = ProgramRun.Outcome(status: -1, output: "", errors: "")
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            call("/KWin", "org.kde.KWin.reconfigure", [])
            let running = await poll(timeout: .seconds(2)) {
                last = self.call("/Scripting", "org.kde.kwin.Scripting.isScriptLoaded", [id])
                return last.output.contains("true")
            }
            if running { return }
        }
        throw DaemonTestError(description: "KWin did not load the script \(id): \(last.output)\(last.errors)")
    }

    /// Activates the window titled `title` through KWin's windows runner (`org.kde.krunner1` `Match`, then `Run`).
    package func activate(title: String) throws {
        let matched = call("/WindowsRunner", "org.kde.krunner1.Match", [title])
        // ([('0_{…}', 'Video', '', 100, 0.8, {…})],)
        let pattern = try Regex("\\('([^']+)', '\(title)',")
        guard let match = try pattern.firstMatch(in: matched.output), let id = match.output[1].substring else {
            throw DaemonTestError(description: "no window titled \(title): \(matched.output)\(matched.errors)")
        }
        let run = call("/WindowsRunner", "org.kde.krunner1.Run", [String(id), ""])
        guard run.status == 0 else { throw DaemonTestError(description: "Run failed: \(run.errors)") }
    }
}
