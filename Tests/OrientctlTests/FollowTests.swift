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

/// `orientctl follow` against the scripted peer, applying through stand-ins for the compositors' tools.
@Suite("orientctl follow", .timeLimit(.minutes(2)))
struct FollowTests {
    /// The tour every backend test drives: the begin state, then three interface changes, covering the
    /// four rotations 0, 90, 180, 270.
    static let tour: [(DeviceOrientation, InterfaceOrientation)] = [
        (.landscapeLeft, .landscapeRight), (.portrait, .portrait), (.landscapeRight, .landscapeLeft),
        (.portraitUpsideDown, .portraitUpsideDown),
    ]

    /// The session variables cleared, so that only what a test sets chooses the backend.
    static let noSession = [
        "SWAYSOCK": "", "HYPRLAND_INSTANCE_SIGNATURE": "", "NIRI_SOCKET": "", "XDG_CURRENT_DESKTOP": "",
        "KDE_FULL_SESSION": "", "DISPLAY": "", "WAYLAND_DISPLAY": "",
    ]

    /// The environment of a test's orientctl: no session but `variables`, the DRM connectors of
    /// `directory/drm` (none unless the test makes some), follow.conf from `directory/config`.
    static func environment(in directory: String, _ variables: [String: String] = [:]) -> [String: String] {
        noSession.merging(
            ["ORIENTCTL_TEST_DRM_DIR": directory + "/drm", "XDG_CONFIG_HOME": directory + "/config"]
        ) { _, new in new }.merging(variables) { _, new in new }
    }

    /// ORIENTATION.md's display transforms, per rotation 0, 90, 180, 270: each backend's commands.
    static let expected: [BackendKind: [[[String]]]] = [
        .sway: ["normal", "270", "180", "90"].map { transform in
            [
                ["swaymsg", "output", "eDP-1", "transform", transform],
                ["swaymsg", "input", "type:touch", "map_to_output", "eDP-1"],
                ["swaymsg", "input", "type:tablet_tool", "map_to_output", "eDP-1"],
            ]
        },
        .hyprland: ["0", "1", "2", "3"].map { transform in
            [
                [
                    "hyprctl", "--batch",
                    "keyword monitor eDP-1,2256x1504@59.999,0x0,1.5,transform,\(transform) ; "
                        + "keyword input:touchdevice:transform \(transform) ; keyword input:tablet:transform \(transform)",
                ]
            ]
        },
        .kde: ["none", "left", "inverted", "right"].map { [["kscreen-doctor", "output.eDP-1.rotation.\($0)"]] },
        .wlr: ["normal", "90", "180", "270"].map { [["wlr-randr", "--output", "DSI-1", "--transform", $0]] },
        .niri: ["normal", "90", "180", "270"].map { [["niri", "msg", "output", "eDP-1", "transform", $0]] },
        .cosmic: ["normal", "rotate90", "rotate180", "rotate270"].map {
            [["cosmic-randr", "mode", "--transform", $0, "--refresh", "59.999", "eDP-1", "2256", "1504"]]
        },
        .x11: [
            ("normal", "1 0 0 0 1 0 0 0 1"), ("left", "0 -1 1 1 0 0 0 0 1"), ("inverted", "-1 0 1 0 -1 1 0 0 1"),
            ("right", "0 1 0 -1 0 1 0 0 1"),
        ].map { rotate, matrix in
            let property = ["Coordinate Transformation Matrix"] + matrix.split(separator: " ").map(String.init)
            // udev says which sit on the panel: the touch screen, the pen's stylus and eraser, its pad (16), not
            // the tablet on USB (17).
            return [
                ["xrandr", "--output", "eDP-1", "--rotate", rotate],
                ["xinput", "set-prop", "11"] + property,
                ["xinput", "set-prop", "13"] + property,
                ["xinput", "set-prop", "14"] + property,
                ["xinput", "set-prop", "16"] + property,
            ]
        },
    ]

    enum BackendKind: String, CaseIterable, CustomTestStringConvertible {
        case sway, hyprland, kde, wlr, niri, cosmic, x11
        var testDescription: String { rawValue }
    }

    @Test(
        "each backend runs ORIENTATION.md's commands for each of the four rotations, turned by a panel offset",
        arguments: BackendKind.allCases,
        [0, 270]
    )
    func backendCommands(backend: BackendKind, offset: Int) async throws {
        try await withTemporaryDirectory { directory in
            let standIns = try StandInPrograms(in: directory)
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                ["follow", "--backend", backend.rawValue, "--panel-offset", String(offset), "--socket", peer.path],
                in: directory,
                environment: Self.environment(in: directory, ["PATH": standIns.path])
            )
            let lines = try await drive(process, through: Self.tour, on: peer)
            #expect(
                lines == [
                    "device=landscape-left interface=landscape-right rotation=0",
                    "device=portrait interface=portrait rotation=90",
                    "device=landscape-right interface=landscape-left rotation=180",
                    "device=portrait-upside-down interface=portrait-upside-down rotation=270",
                ]
            )
            // A portrait-native panel turned 270°: rotation 0 is applied as 270, 90 as 0, and so on.
            let table = try #require(Self.expected[backend])
            let applied = offset == 270 ? [table[3], table[0], table[1], table[2]] : table
            #expect(standIns.changes == applied.flatMap { $0 })
            #expect(process.errorOutput.isEmpty)
        }
    }

    @Test("exec runs the command with watch --exec's variables, the transforms turned by the panel offset")
    func execBackend() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let record = directory + "/runs"
            let command =
                #"printf '%s|%s|%s|%s|%s|%s\n' "$ORIENTD_INTERFACE" "$ORIENTD_ROTATION" "$ORIENTD_WAYLAND_TRANSFORM" "#
                + #""$ORIENTD_SWAY_TRANSFORM" "$ORIENTD_XRANDR" "$ORIENTD_MATRIX" >> "# + record
            for offset in [0, 90] {
                try? FileManager.default.removeItem(atPath: record)
                let process = try OrientctlProcess(
                    ["follow", "--socket", peer.path, "--exec", command, "--panel-offset", String(offset)],
                    in: directory,
                    environment: Self.environment(in: directory)
                )
                _ = try await drive(process, through: Self.tour, on: peer)
                let rows = [
                    "0|normal|normal|1 0 0 0 1 0 0 0 1", "1|270|left|0 -1 1 1 0 0 0 0 1",
                    "2|180|inverted|-1 0 1 0 -1 1 0 0 1", "3|90|right|0 1 0 -1 0 1 0 0 1",
                ]
                let turned = offset == 90 ? Array(rows[1...] + rows[..<1]) : rows
                let prefixes = [
                    "landscape-right|0|", "portrait|90|", "landscape-left|180|", "portrait-upside-down|270|",
                ]
                #expect(
                    try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map(String.init)
                        == zip(prefixes, turned).map { $0 + $1 }
                )
            }
        }
    }

    @Test("--dry-run prints each change and its commands, and runs only the queries")
    func dryRun() async throws {
        try await withTemporaryDirectory { directory in
            let standIns = try StandInPrograms(in: directory)
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                ["follow", "--dry-run", "--socket", peer.path, "--output", "eDP-1", "--touch", "11", "ELAN Pen"],
                in: directory,
                environment: Self.environment(in: directory, ["PATH": standIns.path, "DISPLAY": ":0"])
            )
            let lines = try await drive(process, through: Array(Self.tour.prefix(2)), on: peer, lines: 8)
            #expect(
                lines == [
                    "device=landscape-left interface=landscape-right rotation=0",
                    "xrandr --output eDP-1 --rotate normal",
                    "xinput set-prop 11 'Coordinate Transformation Matrix' 1 0 0 0 1 0 0 0 1",
                    "xinput set-prop 'ELAN Pen' 'Coordinate Transformation Matrix' 1 0 0 0 1 0 0 0 1",
                    "device=portrait interface=portrait rotation=90",
                    "xrandr --output eDP-1 --rotate left",
                    "xinput set-prop 11 'Coordinate Transformation Matrix' 0 -1 1 1 0 0 0 0 1",
                    "xinput set-prop 'ELAN Pen' 'Coordinate Transformation Matrix' 0 -1 1 1 0 0 0 0 1",
                ]
            )
            // --output and --touch named everything: nothing was asked, nothing changed.
            #expect(standIns.runs.isEmpty)
        }
    }

    @Test(
        "the backend comes from the session's variables",
        arguments: [
            (["SWAYSOCK": "/run/user/1000/sway-ipc.sock"], "swaymsg"),
            (["HYPRLAND_INSTANCE_SIGNATURE": "abc_123", "WAYLAND_DISPLAY": "wayland-1"], "hyprctl"),
            (["NIRI_SOCKET": "/run/user/1000/niri.wayland-1.sock", "WAYLAND_DISPLAY": "wayland-1"], "niri"),
            (["XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": "wayland-0"], "kscreen-doctor"),
            (["XDG_CURRENT_DESKTOP": "KDE", "DISPLAY": ":0"], "kscreen-doctor"),
            (["XDG_CURRENT_DESKTOP": "COSMIC", "WAYLAND_DISPLAY": "wayland-1"], "cosmic-randr"),
            (["XDG_CURRENT_DESKTOP": "river", "WAYLAND_DISPLAY": "wayland-1"], "wlr-randr"),
            (["WAYLAND_DISPLAY": "wayland-1"], "wlr-randr"),
            (["DISPLAY": ":0"], "xrandr"),
        ]
    )
    func backendFromSession(variables: [String: String], program: String) async throws {
        try await withTemporaryDirectory { directory in
            let standIns = try StandInPrograms(in: directory)
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                ["follow", "--socket", peer.path],
                in: directory,
                environment: Self.environment(
                    in: directory,
                    variables.merging(["PATH": standIns.path]) { _, new in new }
                )
            )
            _ = try await drive(process, through: Array(Self.tour.prefix(1)), on: peer)
            #expect(standIns.changes.first?.first == program)
        }
    }

    @Test("without a backend or a session (GNOME rotates itself): exit 2, asking for --backend")
    func noSession() async throws {
        try await withTemporaryDirectory { directory in
            let run = try await OrientctlProcess.run(
                ["follow", "--socket", directory + "/none"],
                in: directory,
                environment: Self.environment(
                    in: directory,
                    ["WAYLAND_DISPLAY": "wayland-0", "XDG_CURRENT_DESKTOP": "GNOME"]
                )
            )
            #expect(run.status == 2)
            #expect(run.errorOutput.hasPrefix("Error: cannot tell which desktop to rotate"))
            #expect(run.errorOutput.contains("--backend sway|hyprland|niri|kde|cosmic|wlr|x11|exec"))
        }
    }

    @Test("a failed command is reported with its status and words, and the next change applies again")
    func failureIsReportedAndRetried() async throws {
        try await withTemporaryDirectory { directory in
            let standIns = try StandInPrograms(in: directory)
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                ["follow", "--backend", "sway", "--socket", peer.path, "--touch", "1267:10780:ELAN_Touchscreen"],
                in: directory,
                environment: Self.environment(in: directory, ["PATH": standIns.path])
            )
            let connection = try await peer.accept()
            _ = try await connection.readLine()
            // Unknown at the start: nothing to apply.
            let unknown = Fixture.state(device: .unknown, interface: .unknown)
            try connection.send(Fixture.result(1, BeginResult(count: 1, state: unknown)))
            try standIns.setFailing(true)
            let portrait = Fixture.state(device: .portrait, interface: .portrait, seq: 2)
            try connection.send(Fixture.event(.device, portrait), Fixture.event(.interface, portrait))
            try await waitUntil { process.errorOutput.split(separator: "\n").count >= 2 }
            let reported = process.errorOutput.split(separator: "\n").map(String.init)
            let expectedReports: [String] = [
                "orientctl: cannot apply interface=portrait rotation=90: 'swaymsg output eDP-1 transform 270' "
                    + "exited with status 2: swaymsg: refused by the stand-in; trying again at the next change",
                "orientctl: cannot apply interface=portrait rotation=90: 'swaymsg input "
                    + "1267:10780:ELAN_Touchscreen map_to_output eDP-1' exited with status 2: swaymsg: refused by "
                    + "the stand-in; trying again at the next change",
            ]
            #expect(reported == expectedReports)
            try standIns.setFailing(false)
            // A device event that leaves the interface as it is does not retry; the next change does.
            let faceUp = Fixture.state(device: .faceUp, interface: .portrait, seq: 3)
            let upsideDown = Fixture.state(device: .portraitUpsideDown, interface: .portraitUpsideDown, seq: 4)
            try connection.send(Fixture.event(.device, faceUp), Fixture.event(.interface, upsideDown))
            #expect(try await process.waitForOutputLines(1) == [upsideDown.orientationLine])
            process.signal(SIGTERM)
            #expect(try await process.wait() == 0)
            #expect(
                standIns.changes == [
                    ["swaymsg", "output", "eDP-1", "transform", "270"],
                    ["swaymsg", "input", "1267:10780:ELAN_Touchscreen", "map_to_output", "eDP-1"],
                    ["swaymsg", "output", "eDP-1", "transform", "90"],
                    ["swaymsg", "input", "1267:10780:ELAN_Touchscreen", "map_to_output", "eDP-1"],
                ]
            )
        }
    }

    @Test("when orientd restarts, follow reconnects, begins again and applies the state it finds")
    func survivesDaemonRestart() async throws {
        try await withTemporaryDirectory { directory in
            let standIns = try StandInPrograms(in: directory)
            let path = directory + "/socket"
            var peer = try ScriptedPeer(path: path)
            let process = try OrientctlProcess(
                ["follow", "--backend", "x11", "--socket", path, "--output", "eDP-1", "--touch", "11"],
                in: directory,
                environment: Self.environment(in: directory, ["PATH": standIns.path])
            )
            var connection = try await peer.accept()
            #expect(try await connection.readLine() == #"{"id": 1, "method": "begin"}"#)
            try connection.send(Fixture.result(1, BeginResult(count: 1, state: Fixture.state())))
            #expect(try await process.waitForOutputLines(1).count == 1)

            // orientd goes away; a new one comes up with a lock to portrait in force.
            peer.stopListening()
            connection.close()
            try await waitUntil { process.errorOutput.contains("orientd went away") }
            peer = try ScriptedPeer(path: path)
            connection = try await peer.accept()
            #expect(try await connection.readLine() == #"{"id": 1, "method": "begin"}"#)
            let locked = Fixture.state(device: .unknown, interface: .portrait, lock: .portrait, seq: 1)
            try connection.send(Fixture.result(1, BeginResult(count: 1, state: locked)))
            #expect(try await connection.readLine() == #"{"id": 2, "method": "get"}"#)
            try connection.send(Fixture.result(2, locked))
            #expect(try await process.waitForOutputLines(2).last == locked.orientationLine)
            // Events of the new connection are followed.
            let unlocked = Fixture.state(device: .landscapeRight, interface: .landscapeLeft, seq: 2)
            try connection.send(Fixture.event(.allowed, unlocked), Fixture.event(.interface, unlocked))
            #expect(try await process.waitForOutputLines(3).last == unlocked.orientationLine)
            process.signal(SIGTERM)
            #expect(try await process.wait() == 0)
            #expect(standIns.changes.filter { $0.first == "xrandr" }.map { $0.last } == ["normal", "left", "inverted"])
            #expect(process.errorOutput.contains("orientctl: reconnected to orientd"))
        }
    }

    /// Answers follow's begin with the first state of `tour`, sends the others as interface events, and
    /// returns the first `lines` lines it prints (one per change by default); stops it with SIGTERM, after its
    /// standard error has said `said` when that is given.
    func drive(
        _ process: OrientctlProcess,
        through tour: [(DeviceOrientation, InterfaceOrientation)],
        on peer: ScriptedPeer,
        lines count: Int? = nil,
        until said: String? = nil
    ) async throws -> [String] {
        let connection = try await peer.accept()
        #expect(try await connection.readLine() == #"{"id": 1, "method": "begin"}"#)
        for (index, (device, interface)) in tour.enumerated() {
            let state = Fixture.state(device: device, interface: interface, seq: UInt64(index + 1))
            if index == 0 {
                try connection.send(Fixture.result(1, BeginResult(count: 1, state: state)))
            } else {
                try connection.send(Fixture.event(.device, state), Fixture.event(.interface, state))
            }
        }
        let lines = try await process.waitForOutputLines(count ?? tour.count)
        // What follow says on standard error comes from tasks of its own, in no fixed order with the lines.
        if let said { try await waitUntil { process.errorOutput.contains(said) } }
        process.signal(SIGTERM)
        #expect(try await process.wait() == 0, "\(process.errorOutput)")
        return lines
    }

    /// Waits until `condition` holds; fails after `timeout` (a guard only).
    func waitUntil(timeout: Duration = .seconds(30), _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { throw PeerError("still waiting after \(timeout)") }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
