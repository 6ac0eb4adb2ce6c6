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
import OrientProtocol
import OrientationCore
import OrientdTestSupport
import Testing

/// orientctl's command line, exit codes and output, run as a process against the scripted peer.
@Suite("orientctl against a scripted peer", .timeLimit(.minutes(2)))
struct OrientctlTests {
    @Test(
        "usage errors exit 2 without connecting",
        arguments: [
            ["lock", "sideways"], ["lock", "--toggle", "portrait"], ["constrain"], ["constrain", "up"], ["spin"],
            ["rotate", "landscape"], ["rotate", "sideways"],
            ["follow", "--backend", "sway", "--panel-offset", "45"], ["follow", "--backend", "exec"],
            ["follow", "--backend", "hyprland", "--touch", "ELAN"], ["follow", "--backend", "x11", "--exec", "true"],
            ["follow", "--exec", "true", "--output", "eDP-1"], ["follow", "--backend", "sway", "--dry-run", "--json"],
            ["follow", "--backend", "wayfire"], ["tablet-mode"], ["tablet-mode", "yes"],
        ]
    )
    func usageErrors(arguments: [String]) async throws {
        try await withTemporaryDirectory { directory in
            let run = try await OrientctlProcess.run(["--socket", directory + "/none"] + arguments, in: directory)
            #expect(run.status == 2)
            #expect(run.errorOutput.hasPrefix("Error: "))
            #expect(run.output.isEmpty)
        }
    }

    @Test("no daemon: exit 3, and how to start it")
    func unreachable() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/none"
            let run = try await OrientctlProcess.run(["get"], in: directory, environment: ["ORIENTD_SOCKET": path])
            #expect(run.status == 3)
            #expect(
                run.errorOutput
                    == "orientctl: cannot connect to \(path): No such file or directory. Is orientd running? "
                    + "Start it with 'sudo systemctl start orientd.socket' or run 'orientd run --socket \(path)'\n"
            )
        }
    }

    @Test("get --no-wait prints the state line; --json the state object as the daemon sent it")
    func getNoWait() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let stateText = String(
                decoding: MessageEncoder.result(id: nil, Fixture.state(lock: .landscape)),
                as: UTF8.self
            )
            .dropFirst(#"{"id":null,"result":"#.count).dropLast(2)
            for json in [false, true] {
                let process = try OrientctlProcess(
                    (json ? ["--json"] : []) + ["get", "--no-wait"],
                    in: directory,
                    environment: ["ORIENTD_SOCKET": peer.path]
                )
                let connection = try await peer.accept()
                #expect(try await connection.readLine() == #"{"id": 1, "method": "get"}"#)
                try connection.send(Array(#"{"id": 1, "result": \#(stateText)}"#.utf8) + [10])
                #expect(try await process.wait() == 0)
                #expect(
                    process.output
                        == (json
                            ? stateText + "\n"
                            : "device=landscape-left interface=landscape-right rotation=0 "
                                + "lock=landscape-left,landscape-right\n")
                )
            }
        }
    }

    @Test("get begins, waits for the first device event, ends, and prints that state")
    func getWaits() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(["--socket", peer.path, "get"], in: directory)
            let connection = try await peer.accept()
            #expect(try await connection.readLine() == #"{"id": 1, "method": "begin"}"#)
            let unknown = Fixture.state(device: .unknown, interface: .unknown, sensor: .stopped)
            let portrait = Fixture.state(device: .portrait, interface: .portrait, seq: 2)
            try connection.send(
                Fixture.result(1, BeginResult(count: 1, state: unknown)),
                Fixture.event(.sensor, Fixture.state(device: .unknown, interface: .unknown), previous: "stopped"),
                Fixture.event(.device, portrait, previous: "unknown")
            )
            #expect(try await connection.readLine() == #"{"id": 2, "method": "end"}"#)
            try connection.send(Fixture.result(2, EndResult(count: 0)))
            #expect(try await process.wait() == 0)
            #expect(process.output == "device=portrait interface=portrait rotation=90 lock=none\n")
        }
    }

    @Test(
        "the daemon's errors: exit 4 for permission-denied, 1 for the others, its code and message on stderr",
        arguments: [(ProtocolError.Code.permissionDenied, Int32(4)), (.invalidOrientation, 1), (.stateNotSaved, 1)]
    )
    func daemonErrors(code: ProtocolError.Code, status: Int32) async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(["lock", "portrait", "--socket", peer.path], in: directory)
            let connection = try await peer.accept()
            #expect(
                try await connection.readLine()
                    == #"{"id": 1, "method": "lock", "params": {"orientation": "portrait"}}"#
            )
            try connection.send(Fixture.error(1, code, "not now"))
            #expect(try await process.wait() == status)
            #expect(process.errorOutput == "orientctl: \(code.rawValue): not now\n")
        }
    }

    @Test("lock --toggle unlocks when locked, and locks the current orientation when not")
    func toggle() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            for locked in [true, false] {
                let process = try OrientctlProcess(["--socket", peer.path, "lock", "--toggle"], in: directory)
                let connection = try await peer.accept()
                #expect(try await connection.readLine() == #"{"id": 1, "method": "get"}"#)
                try connection.send(Fixture.result(1, Fixture.state(lock: locked ? .landscapeRight : nil)))
                let expected =
                    locked ? #"{"id": 2, "method": "unlock"}"# : #"{"id": 2, "method": "lock", "params": {}}"#
                #expect(try await connection.readLine() == expected)
                try connection.send(Fixture.result(2, Fixture.state(lock: locked ? nil : .landscapeRight)))
                #expect(try await process.wait() == 0)
                #expect(process.output.hasSuffix(locked ? "lock=none\n" : "lock=landscape-right\n"))
            }
        }
    }

    @Test("watch --exec runs the command for the state and each interface change, with ORIENTATION.md's values")
    func watchExec() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let record = directory + "/runs"
            let command =
                #"printf '%s|%s|%s|%s|%s|%s|%s\n' "$ORIENTD_DEVICE" "$ORIENTD_INTERFACE" "$ORIENTD_ROTATION" "#
                + #""$ORIENTD_WAYLAND_TRANSFORM" "$ORIENTD_SWAY_TRANSFORM" "$ORIENTD_XRANDR" "$ORIENTD_MATRIX" >> "#
                + record
            let process = try OrientctlProcess(["--socket", peer.path, "watch", "--exec", command], in: directory)
            let connection = try await peer.accept()
            #expect(try await connection.readLine() == #"{"id": 1, "method": "begin"}"#)
            try connection.send(Fixture.result(1, BeginResult(count: 1, state: Fixture.state())))
            let tour: [(DeviceOrientation, InterfaceOrientation)] = [
                (.portrait, .portrait), (.landscapeRight, .landscapeLeft), (.portraitUpsideDown, .portraitUpsideDown),
            ]
            for (seq, (device, interface)) in tour.enumerated() {
                let state = Fixture.state(device: device, interface: interface, seq: UInt64(seq + 2))
                try connection.send(Fixture.event(.device, state), Fixture.event(.interface, state))
            }
            try connection.send(
                Fixture.event(.device, Fixture.state(device: .faceUp, interface: .portraitUpsideDown, seq: 9))
            )
            let lines = try await process.waitForOutputLines(5)
            process.signal(SIGTERM)
            #expect(try await process.wait() == 0)
            // One line per change (seq), though each turn came as a device and an interface event.
            #expect(
                lines == [
                    "device=landscape-left interface=landscape-right rotation=0 lock=none",
                    "device=portrait interface=portrait rotation=90",
                    "device=landscape-right interface=landscape-left rotation=180",
                    "device=portrait-upside-down interface=portrait-upside-down rotation=270",
                    "device=face-up interface=portrait-upside-down rotation=270",
                ]
            )
            #expect(process.output.split(separator: "\n").count == 5)
            #expect(
                try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n") == [
                    "landscape-left|landscape-right|0|0|normal|normal|1 0 0 0 1 0 0 0 1",
                    "portrait|portrait|90|1|270|left|0 -1 1 1 0 0 0 0 1",
                    "landscape-right|landscape-left|180|2|180|inverted|-1 0 1 0 -1 1 0 0 1",
                    "portrait-upside-down|portrait-upside-down|270|3|90|right|0 1 0 -1 0 1 0 0 1",
                ]
            )
        }
    }

    @Test("watch --json prints the state object, then each event line as sent; the daemon leaving ends it with 3")
    func watchJSONUntilDaemonLeaves() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                ["watch", "--json"],
                in: directory,
                environment: ["ORIENTD_SOCKET": peer.path]
            )
            let connection = try await peer.accept()
            _ = try await connection.readLine()
            let event =
                #"{"event": "allowed", "state": {"lock": ["portrait"], "seq": 4, "device": "portrait", "#
                + #""interface": "portrait", "rotation": 90, "transform": {"wayland": 1, "sway": "270", "#
                + #""xrandr": "left", "matrix": [0, -1, 1, 1, 0, 0, 0, 0, 1]}, "allowed": ["portrait"], "#
                + #""sensor": "active", "generating": true}}"#
            let stateText = event.split(separator: #""state": "#, maxSplits: 1)[1].dropLast()
            try connection.send(
                Array(#"{"id": 1, "result": {"count": 1, "state": \#(stateText)}}"#.utf8) + [10],
                Array(event.utf8) + [10]
            )
            #expect(try await process.waitForOutputLines(2) == [String(stateText), event])
            connection.close()
            #expect(try await process.wait() == 3)
            #expect(process.errorOutput.contains("orientd closed the connection at \(peer.path)"))
        }
    }

    @Test("constrain sends the constraint, prints the state, then begins and follows until SIGINT")
    func constrain() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                ["--socket", peer.path, "constrain", "portrait,landscape"],
                in: directory
            )
            let connection = try await peer.accept()
            let requests = try await connection.answer(2)
            #expect(
                requests == [
                    #"{"id": 1, "method": "constrain", "params": "#
                        + #"{"mask": ["portrait", "landscape-left", "landscape-right"]}}"#,
                    #"{"id": 2, "method": "begin"}"#,
                ]
            )
            try connection.send(
                Fixture.event(.interface, Fixture.state(device: .portrait, interface: .portrait, seq: 2))
            )
            #expect(try await process.waitForOutputLines(2).last == "device=portrait interface=portrait rotation=90")
            process.signal(SIGINT)
            #expect(try await process.wait() == 0)
            #expect(try await connection.readLine() == nil)
        }
    }

    @Test("status prints a readable block")
    func status() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(["--socket", peer.path, "status"], in: directory)
            try await peer.accept().answer(1)
            #expect(try await process.wait() == 0)
            let lines = process.output.split(separator: "\n")
            #expect(lines.first == "orientd:        9.9.9, up 1h 2m 3s")
            #expect(lines.contains("  matrix:       1, 0, 0; 0, 1, 0; 0, 0, 1 (from hwdb)"))
            #expect(lines.last == "clients:        2 connected, 1 generating (count 1)")
        }
    }
    @Test(
        "status says what the tablet-mode switch does",
        arguments: [
            (
                "tablet-mode", false, false as Bool?,
                "tablet mode:    laptop; the interface stays natural (AutoRotate=tablet-mode)"
            ),
            (
                "tablet-mode", true, true,
                "tablet mode:    tablet; the interface follows the device (AutoRotate=tablet-mode)"
            ),
            (
                "tablet-mode", true, nil,
                "tablet mode:    unknown (no switch, the hinge has not decided); rotates as with AutoRotate=always"
            ),
            ("always", true, false, "tablet mode:    laptop; the interface follows the device (AutoRotate=always)"),
        ]
    )
    func statusTabletMode(autoRotate: String, follows: Bool, tabletMode: Bool?, line: String) async throws {
        var report = Fixture.status
        report.state.tabletMode = tabletMode
        let switches =
            tabletMode.map {
                [
                    StatusReport.TabletMode.Switch(
                        device: "/dev/input/event5",
                        name: "Intel HID switches",
                        tabletMode: $0
                    )
                ]
            } ?? []
        report.tabletMode = .init(autoRotate: autoRotate, followsDevice: follows, switches: switches)
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(["--socket", peer.path, "status"], in: directory)
            let connection = try await peer.accept()
            let request = try #require(try await connection.readLine())
            guard case .request(let decoded) = RequestDecoder.decode(Array(request.utf8)), decoded.method == .status,
                case .number(let id)? = decoded.id
            else {
                Issue.record("not a status request: \(request)")
                return
            }
            try connection.send(Fixture.result(id, report))
            #expect(try await process.wait() == 0)
            let lines = process.output.split(separator: "\n").map(String.init)
            #expect(lines.contains(line), "\(process.output)")
            if let tabletMode {
                #expect(
                    lines.contains(
                        "  switch:       /dev/input/event5 Intel HID switches: \(tabletMode ? "tablet" : "laptop")"
                    )
                )
                #expect(lines.contains { $0.hasPrefix("state:") && $0.hasSuffix("tablet_mode=\(tabletMode)") })
            } else {
                #expect(!lines.contains { $0.hasPrefix("  switch:") })
            }
        }
    }

    @Test("tablet-mode sends the setting and prints the new state line", arguments: ["on", "off", "auto"])
    func tabletMode(mode: String) async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(["--socket", peer.path, "tablet-mode", mode], in: directory)
            let requests = try await peer.accept().answer(1)
            #expect(requests == [#"{"id": 1, "method": "tablet-mode", "params": {"mode": "\#(mode)"}}"#])
            #expect(try await process.wait() == 0)
            let tail = mode == "auto" ? "lock=none" : "lock=none tablet_mode=\(mode == "on")"
            #expect(process.output.hasSuffix(tail + "\n"), "\(process.output)")
        }
    }

    @Test("status names the base sensor, its calibration, and where tablet mode comes from")
    func statusBaseSensor() async throws {
        var report = Fixture.status
        report.state.tabletMode = true
        report.state.tabletModeSource = .hinge
        report.state.hinge = 271.5
        report.tabletMode = .init(autoRotate: "tablet-mode", followsDevice: true, switches: [])
        var base = report.sensor
        base.device = "iio:device1"
        base.location = "base (udev ACCEL_LOCATION)"
        base.matrix = "1, 0, 0; 0, -1, 0; 0, 0, -1"
        base.matrixSource = "udev ACCEL_MOUNT_MATRIX"
        report.baseSensor = base
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(["--socket", peer.path, "status"], in: directory)
            let connection = try await peer.accept()
            let request = try #require(try await connection.readLine())
            guard case .request(let decoded) = RequestDecoder.decode(Array(request.utf8)),
                case .number(let id)? = decoded.id
            else {
                Issue.record("not a request: \(request)")
                return
            }
            try connection.send(Fixture.result(id, report))
            #expect(try await process.wait() == 0)
            let lines = process.output.split(separator: "\n").map(String.init)
            #expect(
                lines.contains(
                    "tablet mode:    tablet (from the hinge at 271.5°); the interface follows the device (AutoRotate=tablet-mode)"
                ),
                "\(process.output)"
            )
            let baseLine = try #require(lines.firstIndex { $0.hasPrefix("base sensor:") }, "\(process.output)")
            #expect(lines[baseLine] == "base sensor:    \(base.status.rawValue) (the hinge angle)")
            let details = lines[(baseLine + 1)...]
            #expect(details.contains("  device:       iio:device1"))
            #expect(details.contains("  location:     base (udev ACCEL_LOCATION)"))
            #expect(details.contains("  matrix:       1, 0, 0; 0, -1, 0; 0, 0, -1 (from udev ACCEL_MOUNT_MATRIX)"))
            #expect(lines.contains { $0.hasPrefix("state:") && $0.hasSuffix("hinge=271.5 tablet_mode=true") })
        }
    }
}
