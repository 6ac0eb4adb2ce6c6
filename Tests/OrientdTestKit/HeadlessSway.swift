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

package import Foundation
import Glibc
import SystemSupport
import Testing

/// A real sway for a test: headless (`WLR_BACKENDS=headless`, one output `HEADLESS-1` at 1280x800, pixman
/// rendering, no input devices), in a runtime directory of its own, as an unprivileged user when the tests run as
/// root (sway refuses nothing as root, but its clients and their files should not be root's).
///
/// Starting it fails with the reason and sway's log, never silently: a machine without sway fails the test.
package final class HeadlessSway {
    /// The runtime directory: sway's IPC socket, its Wayland socket, its log.
    package let runtimeDirectory: String
    /// sway's IPC socket (`SWAYSOCK`).
    package private(set) var socketPath = ""
    /// The Wayland display's name in the runtime directory (`WAYLAND_DISPLAY`).
    package private(set) var waylandDisplay = "wayland-1"
    /// The output the configuration sets up.
    package static let output = "HEADLESS-1"
    private let pid: pid_t
    private var exited = false
    private let logPath: String

    /// The user sway runs as when the tests run as root: `nobody`.
    package static let unprivilegedUser: (uid: uid_t, gid: gid_t) = (65534, 65534)

    /// Starts sway and waits until it answers on its IPC socket (at most 20 s).
    /// - Throws: ``DaemonTestError`` saying why sway cannot run here, with its log.
    package init() throws {
        var template = Array("/tmp/orientd-sway-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw DaemonTestError(description: "mkdtemp: \(Errno.current)") }
        runtimeDirectory = String(cString: made)
        logPath = runtimeDirectory + "/sway.log"
        let configPath = runtimeDirectory + "/config"
        try "output \(Self.output) mode 1280x800 enable\n".write(toFile: configPath, atomically: true, encoding: .utf8)
        chmod(configPath, 0o644)

        guard let sway = Self.find("sway"), Self.find("swaymsg") != nil else {
            throw DaemonTestError(
                description: "sway and swaymsg are needed for the real-sway tests and are not on PATH: "
                    + "run scripts/install-deps (Debian packages sway and foot)"
            )
        }
        var arguments = [sway, "-c", configPath]
        let asRoot = getuid() == 0
        if asRoot {
            // wlroots needs its runtime directory to be the user's own, mode 0700.
            chown(runtimeDirectory, Self.unprivilegedUser.uid, Self.unprivilegedUser.gid)
            guard let setpriv = Self.find("setpriv") else {
                throw DaemonTestError(
                    description: "running as root, and setpriv (util-linux) is missing to drop to nobody"
                )
            }
            arguments =
                [
                    setpriv, "--reuid=\(Self.unprivilegedUser.uid)", "--regid=\(Self.unprivilegedUser.gid)",
                    "--clear-groups", "--",
                ] + arguments
        }
        chmod(runtimeDirectory, 0o700)
        let environment = [
            "PATH=" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "HOME=" + runtimeDirectory,
            "XDG_RUNTIME_DIR=" + runtimeDirectory, "WLR_BACKENDS=headless", "WLR_HEADLESS_OUTPUTS=1",
            "WLR_LIBINPUT_NO_DEVICES=1", "WLR_RENDERER=pixman",
        ]
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        ProgramRun.closeInheritedDescriptors(&actions)
        // The test process blocks signals in some threads; sway must take SIGTERM to stop.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        ProgramRun.resetSignals(&attributes)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else {
            try? FileManager.default.removeItem(atPath: runtimeDirectory)
            throw DaemonTestError(description: "sway could not start: \(Errno(result))")
        }
        pid = child

        // The IPC socket appears as sway-ipc.UID.PID.sock once sway is up.
        var found: String?
        let deadline = ContinuousClock.now + .seconds(20)
        while found == nil, isRunning, ContinuousClock.now < deadline {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []
            if let name = names.first(where: { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }) {
                let candidate = runtimeDirectory + "/" + name
                if Self.run(["swaymsg", "-s", candidate, "-t", "get_version"]).status == 0 { found = candidate }
            }
            if found == nil { usleep(20_000) }
        }
        guard let found else {
            let why = isRunning ? "did not answer on its IPC socket within 20 s" : "exited"
            let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
            stop()
            try? FileManager.default.removeItem(atPath: runtimeDirectory)
            throw DaemonTestError(description: "headless sway \(why) (as uid \(asRoot ? 65534 : getuid())):\n\(log)")
        }
        socketPath = found
        let names = (try? FileManager.default.contentsOfDirectory(atPath: runtimeDirectory)) ?? []
        waylandDisplay = names.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") } ?? waylandDisplay
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: runtimeDirectory)
    }

    /// Whether sway still runs (reaps it without blocking once it has ended).
    private var isRunning: Bool {
        guard !exited else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exited = true }
        return !exited
    }

    /// Ends sway (SIGTERM) and waits for it; its windows' clients end with their Wayland connection.
    package func stop() {
        guard isRunning else { return }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        exited = true
    }

    /// The environment a client of this sway needs: `SWAYSOCK`, `WAYLAND_DISPLAY`, `XDG_RUNTIME_DIR`.
    package var clientEnvironment: [String: String] {
        ["SWAYSOCK": socketPath, "WAYLAND_DISPLAY": waylandDisplay, "XDG_RUNTIME_DIR": runtimeDirectory]
    }

    /// sway's log so far, for failure messages.
    package var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    /// Runs `swaymsg` with `arguments` on this sway.
    @discardableResult
    package func swaymsg(_ arguments: [String]) -> (status: Int32, output: String) {
        Self.run(["swaymsg", "-s", socketPath] + arguments)
    }

    /// The transform sway applies to an output now (`normal`, `90`, `180`, `270`), read with
    /// `swaymsg -t get_outputs`.
    package func transform(of output: String = HeadlessSway.output) -> String? {
        struct Output: Decodable {
            var name: String
            var transform: String?
        }
        let answer = swaymsg(["-r", "-t", "get_outputs"])
        let outputs = try? JSONDecoder().decode([Output].self, from: Data(answer.output.utf8))
        return outputs?.first { $0.name == output }?.transform
    }

    /// The app ids of the windows sway shows, and the focused one's.
    package func windows() -> (all: [String], focused: String?) {
        let tree = swaymsg(["-r", "-t", "get_tree"]).output
        guard let root = try? JSONSerialization.jsonObject(with: Data(tree.utf8)) else { return ([], nil) }
        var all: [String] = []
        var focused: String?
        func visit(_ node: Any) {
            guard let node = node as? [String: Any] else { return }
            if let appID = node["app_id"] as? String {
                all.append(appID)
                if node["focused"] as? Bool == true { focused = appID }
            }
            for key in ["nodes", "floating_nodes"] {
                for child in node[key] as? [Any] ?? [] { visit(child) }
            }
        }
        visit(root)
        return (all, focused)
    }

    /// Opens a real Wayland window, `foot --app-id=APP_ID`, started by sway (so as sway's user), and waits until
    /// sway shows it.
    package func openWindow(appID: String) async throws {
        let started = swaymsg(["exec", "foot --app-id=\(appID) sleep 600"])
        guard started.status == 0 else {
            throw DaemonTestError(description: "swaymsg exec foot failed: \(started.output)\n\(log)")
        }
        guard await poll(timeout: .seconds(20), { windows().all.contains(appID) }) else {
            throw DaemonTestError(description: "foot --app-id=\(appID) did not appear in sway's tree\n\(log)")
        }
    }

    /// Gives the focus to the window of `appID` and waits until sway says it has it.
    package func focus(appID: String) async throws {
        swaymsg(["[app_id=\(appID)] focus"])
        guard await poll(timeout: .seconds(10), { windows().focused == appID }) else {
            throw DaemonTestError(description: "sway did not focus \(appID): \(windows())")
        }
    }

    /// Closes the window of `appID` and waits until it is gone.
    package func close(appID: String) async throws {
        swaymsg(["[app_id=\(appID)] kill"])
        guard await poll(timeout: .seconds(10), { !windows().all.contains(appID) }) else {
            throw DaemonTestError(description: "the window \(appID) did not close: \(windows())")
        }
    }

    /// The path of a program on PATH.
    private static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// Runs a program to its end; its standard output (and error) and status.
    private static func run(_ arguments: [String]) -> (status: Int32, output: String) {
        let outcome = ProgramRun.run(arguments)
        return (outcome.status, outcome.output + outcome.errors)
    }
}
