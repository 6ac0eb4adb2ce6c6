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
import OrientClient
import OrientProtocol
import OrientationCore
import OrientdTestSupport
import Testing

/// follow.conf's `[Apps]`: Hyprland's event socket (recorded `activewindow` lines through a stand-in socket) and
/// X11's `_NET_ACTIVE_WINDOW` (a real Xvfb and the real xprop) make follow hold and release the ruled app's mask
/// on the scripted peer; mistakes in the section are reported with the file and line.
@Suite("orientctl follow: app rules", .timeLimit(.minutes(2)))
struct FollowAppsTests {
    /// The constrain request orientctl sends for `app`'s `mask` with request id `id` (nil: the release).
    static func constrain(_ id: Int, _ mask: [String]?, app: String = "mpv") -> String {
        guard let mask else { return #"{"id": \#(id), "method": "constrain", "params": {"mask": null}}"# }
        let value = "[" + mask.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
        return #"{"id": \#(id), "method": "constrain", "params": {"mask": \#(value), "holder": "app \#(app)"}}"#
    }

    /// Writes follow.conf under `directory/config`.
    static func writeFollowConf(_ text: String, in directory: String) throws {
        try FileManager.default.createDirectory(
            atPath: directory + "/config/orientd",
            withIntermediateDirectories: true
        )
        try text.write(toFile: directory + "/config/orientd/follow.conf", atomically: true, encoding: .utf8)
    }

    @Test("Hyprland: activewindow lines hold the ruled class's mask and release it, matching globs, once each")
    func hyprlandEventSocket() async throws {
        try await withTemporaryDirectory { directory in
            let standIns = try StandInPrograms(in: directory)
            try Self.writeFollowConf(
                "[Follow]\nOutput=eDP-1\n\n[Apps]\nmpv=landscape\nsteam_app_*=landscape-right\n",
                in: directory
            )
            // Hyprland's event socket, where Hyprland 0.40 and later put it.
            let signature = "v0.45_1700000000_test"
            let socketFolder = directory + "/runtime/hypr/\(signature)"
            try FileManager.default.createDirectory(atPath: socketFolder, withIntermediateDirectories: true)
            let events = try ScriptedPeer(path: socketFolder + "/.socket2.sock")
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                ["follow", "--socket", peer.path],
                in: directory,
                environment: FollowTests.environment(
                    in: directory,
                    [
                        "PATH": standIns.path, "HYPRLAND_INSTANCE_SIGNATURE": signature,
                        "XDG_RUNTIME_DIR": directory + "/runtime",
                    ]
                )
            )
            let connection = try await peer.accept()
            #expect(try await connection.readLine() == #"{"id": 1, "method": "begin"}"#)
            try connection.send(
                Fixture.result(1, BeginResult(count: 1, state: Fixture.state(device: .portrait, interface: .portrait)))
            )
            let stream = try await events.accept()

            // Recorded lines, as Hyprland writes them: other events between, a title with commas.
            try stream.send(
                Array("workspace>>2\nactivewindow>>mpv,film.mkv - mpv, 1:02\nactivewindowv2>>55d0a1b2c3d0\n".utf8)
            )
            #expect(try await connection.readLine() == Self.constrain(2, ["landscape-left", "landscape-right"]))
            try connection.send(Fixture.result(2, Fixture.state(device: .portrait, interface: .landscapeRight)))
            // Another ruled class with a glob, then an unruled one, then none: one request per change of mask.
            try stream.send(Array("activewindow>>steam_app_1245620,ELDEN RING\n".utf8))
            #expect(try await connection.readLine() == Self.constrain(3, ["landscape-right"], app: "steam_app_1245620"))
            try connection.send(Fixture.result(3, Fixture.state(device: .portrait, interface: .landscapeRight)))
            try stream.send(Array("activewindow>>kitty,~\nactivewindow>>,\nactivewindow>>foot,~\n".utf8))
            #expect(try await connection.readLine() == Self.constrain(4, nil))
            try connection.send(Fixture.result(4, Fixture.state(device: .portrait, interface: .portrait)))
            try stream.send(Array("activewindow>>mpv,other.mkv\n".utf8))
            #expect(try await connection.readLine() == Self.constrain(5, ["landscape-left", "landscape-right"]))
            try connection.send(Fixture.result(5, Fixture.state(device: .portrait, interface: .landscapeRight)))

            // A lock wins: the rule is set aside while the state shows one.
            let locked = Fixture.state(device: .portrait, interface: .portrait, lock: .portrait, seq: 6)
            try connection.send(Fixture.event(.allowed, locked))
            #expect(try await connection.readLine() == Self.constrain(6, nil))
            try connection.send(Fixture.result(6, locked))
            try await FollowTests().waitUntil { process.errorOutput.contains("the lock wins over the rule of mpv") }

            process.signal(SIGTERM)
            #expect(try await process.wait() == 0, "\(process.errorOutput)")
            #expect(
                process.errorOutput.contains(
                    "orientctl: mpv has the focus: holding landscape-left landscape-right (follow.conf [Apps] line 5)"
                )
            )
            #expect(process.errorOutput.contains("released landscape-right: kitty lost the focus") == false)
            #expect(
                process.errorOutput.contains("orientctl: released landscape-right: steam_app_1245620 lost the focus")
            )
        }
    }

    @Test("niri: its event stream's window events, from the whole state at the start to focus and close")
    func niriEventStream() async throws {
        try await withTemporaryDirectory { directory in
            try Self.writeFollowConf("[Apps]\nmpv=landscape\n", in: directory)
            // A stand-in niri: the event stream follows a file the test appends recorded lines to; every other
            // command (the rotation's) succeeds.
            let bin = directory + "/bin"
            try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
            let events = directory + "/niri-events"
            #expect(FileManager.default.createFile(atPath: events, contents: nil))
            let script =
                "#!/bin/sh\ncase \"$*\" in\n\"msg --json event-stream\") exec tail -n +1 -f '\(events)' ;;\nesac\n"
            try StandInPrograms.writeProgram(script, to: bin + "/niri")
            func record(_ lines: String) throws {
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: events))
                try handle.seekToEnd()
                try handle.write(contentsOf: Data(lines.utf8))
                try handle.close()
            }
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                ["follow", "--backend", "niri", "--output", "eDP-1", "--socket", peer.path],
                in: directory,
                environment: FollowTests.environment(
                    in: directory,
                    ["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
                )
            )
            let connection = try await peer.accept()
            #expect(try await connection.readLine() == #"{"id": 1, "method": "begin"}"#)
            try connection.send(
                Fixture.result(1, BeginResult(count: 1, state: Fixture.state(device: .portrait, interface: .portrait)))
            )
            // The state at the start: two windows, the terminal focused; then mpv gets the focus.
            try record(
                #"{"WorkspacesChanged":{"workspaces":[]}}"# + "\n"
                    + #"{"WindowsChanged":{"windows":[{"id":1,"title":"~","app_id":"foot","is_focused":true},"#
                    + #"{"id":2,"title":"film.mkv","app_id":"mpv","is_focused":false}]}}"# + "\n"
                    + #"{"WindowFocusChanged":{"id":2}}"# + "\n"
            )
            #expect(try await connection.readLine() == Self.constrain(2, ["landscape-left", "landscape-right"]))
            try connection.send(Fixture.result(2, Fixture.state(device: .portrait, interface: .landscapeRight)))
            // mpv closes: nothing has the focus until niri says.
            try record(#"{"WindowClosed":{"id":2}}"# + "\n" + #"{"WindowFocusChanged":{"id":null}}"# + "\n")
            #expect(try await connection.readLine() == Self.constrain(3, nil))
            try connection.send(Fixture.result(3, Fixture.state(device: .portrait, interface: .portrait)))
            // A new mpv window opens focused.
            try record(
                #"{"WindowOpenedOrChanged":{"window":{"id":3,"title":"x","app_id":"mpv","is_focused":true}}}"# + "\n"
            )
            #expect(try await connection.readLine() == Self.constrain(4, ["landscape-left", "landscape-right"]))
            try connection.send(Fixture.result(4, Fixture.state(device: .portrait, interface: .landscapeRight)))
            process.signal(SIGTERM)
            #expect(try await process.wait() == 0, "\(process.errorOutput)")
        }
    }

    @Test(
        "X11: _NET_ACTIVE_WINDOW on the root of a real X server, and the window's WM_CLASS",
        .enabled(if: XvfbServer.canStart, "Xvfb cannot start here: install xvfb and x11-utils (scripts/install-deps)")
    )
    func x11ActiveWindow() async throws {
        let server = try #require(XvfbServer())
        defer { server.stop() }
        // No window manager here: the test plays its part on the root window, which stands for the app's window.
        let root = try #require(
            try server.run(["xwininfo", "-root"]).output.split(separator: "\n")
                .first { $0.contains("Window id:") }?.split(separator: " ").first { $0.hasPrefix("0x") }
        )
        #expect(
            try server.run(["xprop", "-root", "-f", "_NET_ACTIVE_WINDOW", "32x", "-set", "_NET_ACTIVE_WINDOW", "0"])
                .status == 0
        )
        #expect(try server.run(["xprop", "-root", "-f", "WM_CLASS", "8s", "-set", "WM_CLASS", "mpv"]).status == 0)
        try await withTemporaryDirectory { directory in
            try Self.writeFollowConf("[Apps]\nmpv=landscape\n", in: directory)
            let peer = try ScriptedPeer(path: directory + "/socket")
            // The begin state is rotation 0, which every RandR offers, so that it applies and is printed.
            let process = try OrientctlProcess(
                ["follow", "--backend", "x11", "--socket", peer.path, "--touch", FollowX11Tests.device],
                in: directory,
                environment: FollowTests.environment(in: directory, ["DISPLAY": server.display])
            )
            let connection = try await peer.accept()
            #expect(try await connection.readLine() == #"{"id": 1, "method": "begin"}"#)
            try connection.send(
                Fixture.result(
                    1,
                    BeginResult(count: 1, state: Fixture.state(device: .landscapeLeft, interface: .landscapeRight))
                )
            )
            _ = try await process.waitForOutputLines(1)

            #expect(
                try server.run([
                    "xprop", "-root", "-f", "_NET_ACTIVE_WINDOW", "32x", "-set", "_NET_ACTIVE_WINDOW", String(root),
                ]).status == 0
            )
            #expect(try await connection.readLine() == Self.constrain(2, ["landscape-left", "landscape-right"]))
            try connection.send(Fixture.result(2, Fixture.state(device: .portrait, interface: .landscapeRight)))
            #expect(
                try server.run(["xprop", "-root", "-f", "_NET_ACTIVE_WINDOW", "32x", "-set", "_NET_ACTIVE_WINDOW", "0"])
                    .status == 0
            )
            #expect(try await connection.readLine() == Self.constrain(3, nil))
            try connection.send(Fixture.result(3, Fixture.state(device: .portrait, interface: .portrait)))
            process.signal(SIGTERM)
            #expect(try await process.wait() == 0, "\(process.errorOutput)")
            #expect(
                process.errorOutput.contains("orientctl: mpv has the focus: holding landscape-left landscape-right")
            )
        }
    }

    @Test("app rules where no focus events come are said once, naming the KWin script; rotation goes on")
    func unsupportedDesktopSaysSo() async throws {
        try await withTemporaryDirectory { directory in
            let standIns = try StandInPrograms(in: directory)
            try Self.writeFollowConf("[Apps]\nmpv=landscape\n", in: directory)
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                ["follow", "--backend", "kde", "--socket", peer.path],
                in: directory,
                environment: FollowTests.environment(in: directory, ["PATH": standIns.path])
            )
            let lines = try await FollowTests().drive(
                process,
                through: Array(FollowTests.tour.prefix(2)),
                on: peer,
                until: "the [Apps] rules of follow.conf do not apply"
            )
            #expect(lines.count == 2)
            #expect(
                process.errorOutput.components(
                    separatedBy: "the [Apps] rules of follow.conf do not apply with --backend kde"
                ).count
                    == 2,
                "\(process.errorOutput)"
            )
            // On Plasma, orientd's KWin script applies them: follow says where to turn it on.
            #expect(
                process.errorOutput.contains("orientd's KWin script applies the rules on Plasma instead"),
                "\(process.errorOutput)"
            )
        }
    }

    @Test("a focus stream that ends is reported once; the rules stop and rotation goes on")
    func focusStreamThatEnds() async throws {
        try await withTemporaryDirectory { directory in
            // The stand-in swaymsg answers a subscription as a refused one and ends: no events come.
            let standIns = try StandInPrograms(in: directory)
            try Self.writeFollowConf("[Apps]\nmpv=landscape\n", in: directory)
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                ["follow", "--backend", "sway", "--output", "eDP-1", "--socket", peer.path],
                in: directory,
                environment: FollowTests.environment(in: directory, ["PATH": standIns.path])
            )
            let lines = try await FollowTests().drive(
                process,
                through: Array(FollowTests.tour.prefix(3)),
                on: peer,
                until: "sway's event stream ended"
            )
            #expect(lines.count == 3)
            let said = process.errorOutput.components(separatedBy: "orientctl: the [Apps] rules stop applying: ")
            #expect(said.count == 2, "\(process.errorOutput)")
            #expect(process.errorOutput.contains("sway's event stream ended"), "\(process.errorOutput)")
        }
    }

    static let mistakes: [(String, String)] = [
        ("[Apps]\nmpv=sideways\n", "follow.conf:2: mpv=sideways: allowed: a mask (portrait, portrait-upside-down"),
        ("[Apps]\nmpv=landscape\nmpv=portrait\n", "follow.conf:3: the app mpv is ruled twice"),
        ("[Apps]\n=landscape\n", "follow.conf:2: '=landscape' is not Key=Value"),
        ("mpv=landscape\n[Apps]\n", "follow.conf:1: mpv= comes before the [Follow] or [Apps] line"),
        (
            "[Application]\nmpv=landscape\n",
            "follow.conf:1: unknown section [Application]; follow.conf has [Follow] and [Apps]"
        ),
    ]

    @Test("a mistake in [Apps]: exit 2 naming the file, the line and what is allowed", arguments: mistakes)
    func mistakeInApps(text: String, message: String) async throws {
        try await withTemporaryDirectory { directory in
            try Self.writeFollowConf(text, in: directory)
            let process = try await OrientctlProcess.run(
                ["follow", "--backend", "sway", "--socket", directory + "/socket"],
                in: directory,
                environment: FollowTests.environment(in: directory)
            )
            #expect(try await process.wait() == 2)
            #expect(process.errorOutput.contains(directory + "/config/orientd/" + message), "\(process.errorOutput)")
        }
    }

    @Test("a follow.conf that cannot be read: exit 2 naming the file and why, not an empty configuration")
    func unreadableFollowConf() async throws {
        try await withTemporaryDirectory { directory in
            // A folder where the file should be: open(2) succeeds, read(2) fails with EISDIR.
            try FileManager.default.createDirectory(
                atPath: directory + "/config/orientd/follow.conf",
                withIntermediateDirectories: true
            )
            let process = try await OrientctlProcess.run(
                ["follow", "--backend", "sway", "--socket", directory + "/socket"],
                in: directory,
                environment: FollowTests.environment(in: directory)
            )
            #expect(try await process.wait() == 2)
            #expect(
                process.errorOutput.contains(directory + "/config/orientd/follow.conf: cannot be read"),
                "\(process.errorOutput)"
            )
        }
    }
}
