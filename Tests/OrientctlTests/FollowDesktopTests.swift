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

/// `orientctl follow`'s panel discovery from DRM, its policies (external monitors, laptop mode, the hook,
/// follow.conf) and its time limit, through the stand-ins; and the real wlr-randr's own words.
@Suite("orientctl follow: panels, policies and time limits", .timeLimit(.minutes(2)))
struct FollowDesktopTests {
    /// Writes an emulated `/sys/class/drm` in `directory/drm`: a `card1` device and its connectors with
    /// their status (`connected` or `disconnected`).
    static func makeDRM(in directory: String, _ connectors: [String: String]) throws {
        let folder = directory + "/drm"
        try FileManager.default.createDirectory(atPath: folder + "/card1/device", withIntermediateDirectories: true)
        for (name, status) in connectors { try setConnector(name, status, in: directory) }
    }

    /// Sets one connector's status, as the kernel does when a monitor is plugged in or out.
    static func setConnector(_ name: String, _ status: String, in directory: String) throws {
        let folder = directory + "/drm/card1-" + name
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try (status + "\n").write(toFile: folder + "/status", atomically: true, encoding: .utf8)
    }

    static func state(
        _ device: DeviceOrientation,
        _ interface: InterfaceOrientation,
        seq: UInt64,
        tabletMode: Bool? = nil
    ) -> OrientationState {
        var state = Fixture.state(device: device, interface: interface, seq: seq)
        state.tabletMode = tabletMode
        return state
    }

    /// Accepts follow's connection and answers its begin with `state`.
    static func begin(on peer: ScriptedPeer, with state: OrientationState) async throws -> PeerConnection {
        let connection = try await peer.accept()
        #expect(try await connection.readLine() == #"{"id": 1, "method": "begin"}"#)
        try connection.send(Fixture.result(1, BeginResult(count: 1, state: state)))
        return connection
    }

    @Test("the panel is DRM's connected DSI connector, under the compositor's name for it")
    func panelFromDRM() async throws {
        try await withTemporaryDirectory { directory in
            let standIns = try StandInPrograms(in: directory)
            try Self.makeDRM(
                in: directory,
                ["eDP-1": "disconnected", "DSI-1": "connected", "DP-3": "connected", "HDMI-A-1": "disconnected"]
            )
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                ["follow", "--backend", "wlr", "--socket", peer.path],
                in: directory,
                environment: FollowTests.environment(in: directory, ["PATH": standIns.path])
            )
            _ = try await FollowTests().drive(process, through: Array(FollowTests.tour.prefix(2)), on: peer)
            #expect(
                standIns.changes == [
                    ["wlr-randr", "--output", "DSI-1", "--transform", "normal"],
                    ["wlr-randr", "--output", "DSI-1", "--transform", "90"],
                ]
            )
            #expect(process.errorOutput.isEmpty)
        }
    }

    @Test("a panel DRM shows but the compositor does not (switched off) is reported; no other output turns")
    func panelMissingFromCompositor() async throws {
        try await withTemporaryDirectory { directory in
            let standIns = try StandInPrograms(in: directory)
            try Self.makeDRM(in: directory, ["eDP-1": "connected", "DP-3": "connected"])
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                ["follow", "--backend", "wlr", "--socket", peer.path],
                in: directory,
                environment: FollowTests.environment(in: directory, ["PATH": standIns.path])
            )
            let connection = try await Self.begin(on: peer, with: Fixture.state())
            try await FollowTests().waitUntil { !process.errorOutput.isEmpty }
            #expect(
                process.errorOutput
                    == "orientctl: cannot apply interface=landscape-right rotation=0: the built-in panel (eDP-1, "
                    + "from DRM) is not among the active outputs of wlr-randr (DP-3, DSI-1): is it switched off? "
                    + "Name the output with --output; trying again at the next change\n"
            )
            process.signal(SIGTERM)
            #expect(try await process.wait() == 0)
            // orientd stays until follow ends.
            withExtendedLifetime(connection) {}
            #expect(standIns.changes.isEmpty)
        }
    }

    @Test("--pause-external: nothing turns while an external monitor is connected; the latest state on unplug")
    func pauseWhileExternal() async throws {
        try await withTemporaryDirectory { directory in
            let standIns = try StandInPrograms(in: directory)
            try Self.makeDRM(in: directory, ["eDP-1": "connected", "HDMI-A-1": "connected", "Virtual-1": "connected"])
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                ["follow", "--backend", "niri", "--pause-external", "--socket", peer.path],
                in: directory,
                environment: FollowTests.environment(in: directory, ["PATH": standIns.path])
            )
            let portrait = Self.state(.portrait, .portrait, seq: 1)
            let connection = try await Self.begin(on: peer, with: portrait)
            let paused =
                "orientctl: rotation paused while an external monitor is connected (HDMI-A-1); it resumes when none is"
            try await FollowTests().waitUntil { process.errorOutput.contains(paused) }
            #expect(process.output.isEmpty)

            // Unplugged: the state orientd sent meanwhile is applied.
            try Self.setConnector("HDMI-A-1", "disconnected", in: directory)
            #expect(try await process.waitForOutputLines(1) == [portrait.orientationLine])
            let upsideDown = Self.state(.portraitUpsideDown, .portraitUpsideDown, seq: 2)
            try connection.send(Fixture.event(.device, upsideDown), Fixture.event(.interface, upsideDown))
            #expect(try await process.waitForOutputLines(2).last == upsideDown.orientationLine)

            // Plugged in again: paused again; unplugged: the change made meanwhile is applied.
            try Self.setConnector("HDMI-A-1", "connected", in: directory)
            try await FollowTests().waitUntil { process.errorOutput.components(separatedBy: paused).count == 3 }
            let landscape = Self.state(.landscapeRight, .landscapeLeft, seq: 3)
            try connection.send(Fixture.event(.device, landscape), Fixture.event(.interface, landscape))
            try Self.setConnector("HDMI-A-1", "disconnected", in: directory)
            #expect(try await process.waitForOutputLines(3).last == landscape.orientationLine)
            process.signal(SIGTERM)
            #expect(try await process.wait() == 0)
            #expect(
                standIns.changes == [
                    ["niri", "msg", "output", "eDP-1", "transform", "90"],
                    ["niri", "msg", "output", "eDP-1", "transform", "270"],
                    ["niri", "msg", "output", "eDP-1", "transform", "180"],
                ]
            )
            #expect(process.errorOutput.components(separatedBy: "rotation resumes").count == 3)
        }
    }

    @Test("a hung tool is killed at --timeout and reported; the next change applies again")
    func hungToolIsKilled() async throws {
        try await withTemporaryDirectory { directory in
            let standIns = try StandInPrograms(in: directory)
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                ["follow", "--backend", "kde", "--output", "eDP-1", "--timeout", "0.5", "--socket", peer.path],
                in: directory,
                environment: FollowTests.environment(in: directory, ["PATH": standIns.path])
            )
            try standIns.setHanging(true)
            let connection = try await Self.begin(on: peer, with: Fixture.state())
            try await FollowTests().waitUntil { !process.errorOutput.isEmpty }
            #expect(
                process.errorOutput
                    == "orientctl: cannot apply interface=landscape-right rotation=0: 'kscreen-doctor "
                    + "output.eDP-1.rotation.none' did not finish within 0.5 s and was killed; trying again at the "
                    + "next change\n"
            )
            try standIns.setHanging(false)
            let portrait = Self.state(.portrait, .portrait, seq: 2)
            try connection.send(Fixture.event(.device, portrait), Fixture.event(.interface, portrait))
            #expect(try await process.waitForOutputLines(1) == [portrait.orientationLine])
            process.signal(SIGTERM)
            #expect(try await process.wait() == 0)
            #expect(
                standIns.changes == [
                    ["kscreen-doctor", "output.eDP-1.rotation.none"], ["kscreen-doctor", "output.eDP-1.rotation.left"],
                ]
            )
            // What the hung tool started died with it.
            let sleep = try String(contentsOfFile: directory + "/hung.pid", encoding: .utf8).filter(\.isNumber)
            try await FollowTests().waitUntil {
                let stat = (try? String(contentsOfFile: "/proc/\(sleep)/stat", encoding: .utf8)) ?? ""
                return stat.isEmpty || stat.contains(") Z ")
            }
        }
    }

    @Test("follow.conf: natural orientation out of tablet mode, and the hook after each rotation applied")
    func configurationFilePolicies() async throws {
        try await withTemporaryDirectory { directory in
            let standIns = try StandInPrograms(in: directory)
            try FileManager.default.createDirectory(
                atPath: directory + "/config/orientd",
                withIntermediateDirectories: true
            )
            let record = directory + "/then"
            try """
            # orientctl follow's defaults
            [Follow]
            Backend = kde
            NaturalInLaptopMode=yes
            Then=printf '%s %s\\n' "$ORIENTD_INTERFACE" "$ORIENTD_WAYLAND_TRANSFORM" >> \(record)

            """.write(toFile: directory + "/config/orientd/follow.conf", atomically: true, encoding: .utf8)
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                ["follow", "--socket", peer.path],
                in: directory,
                environment: FollowTests.environment(in: directory, ["PATH": standIns.path])
            )
            let tablet = Self.state(.portrait, .portrait, seq: 1, tabletMode: true)
            let connection = try await Self.begin(on: peer, with: tablet)
            #expect(try await process.waitForOutputLines(1) == [tablet.orientationLine])
            // Folded back into a laptop: the natural orientation, whatever the interface orientation.
            let laptop = Self.state(.portraitUpsideDown, .portraitUpsideDown, seq: 2, tabletMode: false)
            try connection.send(Fixture.event(.device, laptop), Fixture.event(.interface, laptop))
            #expect(
                try await process.waitForOutputLines(2).last
                    == "device=portrait-upside-down interface=landscape-right rotation=0"
            )
            let tabletAgain = Self.state(.landscapeRight, .landscapeLeft, seq: 3, tabletMode: true)
            try connection.send(Fixture.event(.device, tabletAgain), Fixture.event(.interface, tabletAgain))
            #expect(try await process.waitForOutputLines(3).last == tabletAgain.orientationLine)
            try await FollowTests().waitUntil {
                ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").split(separator: "\n").count == 3
            }
            process.signal(SIGTERM)
            #expect(try await process.wait() == 0)
            #expect(
                standIns.changes == [
                    ["kscreen-doctor", "output.eDP-1.rotation.left"], ["kscreen-doctor", "output.eDP-1.rotation.none"],
                    ["kscreen-doctor", "output.eDP-1.rotation.inverted"],
                ]
            )
            #expect(
                try String(contentsOfFile: record, encoding: .utf8)
                    == "portrait 1\nlandscape-right 0\nlandscape-left 2\n"
            )
        }
    }

    @Test("the command line wins over follow.conf: backend, panel offset, --no-pause-external, --then")
    func optionsOverrideTheFile() async throws {
        try await withTemporaryDirectory { directory in
            let standIns = try StandInPrograms(in: directory)
            try Self.makeDRM(in: directory, ["eDP-1": "connected", "DP-2": "connected"])
            try FileManager.default.createDirectory(
                atPath: directory + "/config/orientd",
                withIntermediateDirectories: true
            )
            let record = directory + "/then"
            try "[Follow]\nBackend=kde\nPanelOffset=90\nPauseExternal=yes\nThen=echo file >> \(record)\n".write(
                toFile: directory + "/config/orientd/follow.conf",
                atomically: true,
                encoding: .utf8
            )
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                [
                    "follow", "--backend", "niri", "--panel-offset", "0", "--no-pause-external", "--then",
                    "echo \"$ORIENTD_INTERFACE\" >> \(record)", "--socket", peer.path,
                ],
                in: directory,
                environment: FollowTests.environment(in: directory, ["PATH": standIns.path])
            )
            let connection = try await Self.begin(on: peer, with: Fixture.state())
            let portrait = Self.state(.portrait, .portrait, seq: 2)
            try connection.send(Fixture.event(.device, portrait), Fixture.event(.interface, portrait))
            // The hook runs after the line is printed: wait for its record.
            try await FollowTests().waitUntil {
                ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").split(separator: "\n").count == 2
            }
            process.signal(SIGTERM)
            #expect(try await process.wait() == 0)
            #expect(process.output.split(separator: "\n").count == 2)
            #expect(
                standIns.changes == [
                    ["niri", "msg", "output", "eDP-1", "transform", "normal"],
                    ["niri", "msg", "output", "eDP-1", "transform", "90"],
                ]
            )
            #expect(try String(contentsOfFile: record, encoding: .utf8) == "landscape-right\nportrait\n")
            #expect(process.errorOutput.isEmpty)
        }
    }

    @Test("a mistake in follow.conf: exit 2 naming the file, the line and what is allowed")
    func configurationMistake() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory + "/config/orientd/follow.conf"
            try FileManager.default.createDirectory(
                atPath: directory + "/config/orientd",
                withIntermediateDirectories: true
            )
            try "[Follow]\nBackend=wlr\nPauseExternal=maybe\n".write(toFile: file, atomically: true, encoding: .utf8)
            let run = try await OrientctlProcess.run(
                ["follow", "--socket", directory + "/none"],
                in: directory,
                environment: FollowTests.environment(in: directory)
            )
            #expect(run.status == 2)
            #expect(run.errorOutput.hasPrefix("Error: \(file):3: PauseExternal=maybe: allowed: yes, no\n"))
        }
    }

    @Test(
        "the real wlr-randr without a compositor: its own words are reported",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/wlr-randr"), "wlr-randr is not installed")
    )
    func realWlrRandr() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                ["follow", "--backend", "wlr", "--output", "eDP-1", "--socket", peer.path],
                in: directory,
                environment: FollowTests.environment(
                    in: directory,
                    ["WAYLAND_DISPLAY": "no-compositor", "XDG_RUNTIME_DIR": directory, "PATH": "/usr/bin:/bin"]
                )
            )
            let portrait = Self.state(.portrait, .portrait, seq: 1)
            let connection = try await Self.begin(on: peer, with: portrait)
            try await FollowTests().waitUntil { !process.errorOutput.isEmpty }
            process.signal(SIGTERM)
            #expect(try await process.wait() == 0)
            // orientd stays until follow ends.
            withExtendedLifetime(connection) {}
            #expect(
                process.errorOutput.hasPrefix(
                    "orientctl: cannot apply interface=portrait rotation=90: 'wlr-randr --output eDP-1 --transform 90' "
                        + "exited with status 1: "
                ),
                "\(process.errorOutput)"
            )
            #expect(process.errorOutput.contains("failed to connect to display"))
        }
    }
}
