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
import OrientdTestSupport
import SystemSupport

/// Stand-ins for `swaymsg`, `hyprctl`, `xrandr`, `xinput`, `kscreen-doctor`, `wlr-randr`, `niri` and
/// `cosmic-randr`: small shell scripts in a folder put first on `PATH`, each appending its arguments to one
/// record (a line per run, arguments separated by tabs) and answering the queries `orientctl follow` makes
/// with canned text. A run that is not a query fails (status 2, a message on standard error) while the file
/// `fail` exists in the folder, and hangs (waits for a `sleep 600` it started, whose pid it writes
/// to `hung.pid`) while the file `hang` does.
struct StandInPrograms {
    /// The folder holding the scripts, the canned answers and the record.
    let folder: String

    /// The programs.
    static let programs = [
        "swaymsg", "hyprctl", "xrandr", "xinput", "kscreen-doctor", "wlr-randr", "niri", "cosmic-randr", "udevadm",
    ]

    /// The canned answers: `swaymsg -t get_outputs`, `hyprctl monitors -j`,
    /// `xrandr --query`, `xinput list --long`, `kscreen-doctor --json`, `wlr-randr` (no arguments),
    /// `niri msg --json outputs`, `cosmic-randr list --kdl`, and `xinput list-props ID` with the udev properties
    /// of each device node (`udevadm info --query=property --name=NODE`).
    static let answers: [(program: String, query: String, file: String, text: String)] =
        [
            ("swaymsg", "-t get_outputs", "sway-outputs.json", swayOutputs),
            ("hyprctl", "monitors -j", "hyprland-monitors.json", hyprlandMonitors),
            ("xrandr", "--query", "xrandr-query.txt", xrandrQuery),
            ("xinput", "list --long", "xinput-list.txt", xinputList),
            ("kscreen-doctor", "--json", "kscreen.json", kscreenJSON),
            ("wlr-randr", "", "wlr-randr.txt", wlrRandr),
            ("niri", "msg --json outputs", "niri-outputs.json", niriOutputs),
            ("cosmic-randr", "list --kdl", "cosmic-list.kdl", cosmicList),
        ]
        + inputNodes.flatMap { id, node, properties in
            [
                ("xinput", "list-props \(id)", "xinput-props-\(id).txt", xinputProperties(node: node)),
                ("udevadm", "info --query=property --name=\(node)", "udev-\(id).txt", properties),
            ]
        }

    /// The xinput devices of ``xinputList`` with a device node, and udev's properties of the node: the touch
    /// screen, the pen's stylus and eraser and its pad on the panel (I2C), a tablet on USB.
    static let inputNodes: [(id: Int, node: String, properties: String)] = [
        (11, "/dev/input/event5", "ID_INPUT=1\nID_INPUT_TOUCHSCREEN=1\nID_BUS=i2c\nID_INTEGRATION=internal\n"),
        (13, "/dev/input/event7", "ID_INPUT=1\nID_INPUT_TABLET=1\nID_BUS=i2c\n"),
        (14, "/dev/input/event7", "ID_INPUT=1\nID_INPUT_TABLET=1\nID_BUS=i2c\n"),
        (16, "/dev/input/event8", "ID_INPUT=1\nID_INPUT_TABLET=1\nID_INPUT_TABLET_PAD=1\nID_BUS=i2c\n"),
        (17, "/dev/input/event20", "ID_INPUT=1\nID_INPUT_TABLET=1\nID_BUS=usb\nID_INTEGRATION=external\n"),
    ]

    /// What `xinput list-props` says of a device with a node.
    static func xinputProperties(node: String) -> String {
        """
        Device 'some device':
        \tDevice Enabled (187):\t1
        \tCoordinate Transformation Matrix (189):\t1.000000, 0.000000, 0.000000, 0.000000, 1.000000, 0.000000, 0.000000, 0.000000, 1.000000
        \tDevice Node (312):\t"\(node)"

        """
    }

    /// Writes the scripts and answers into `folder`.
    init(in folder: String) throws {
        self.folder = folder
        for answer in Self.answers {
            try answer.text.write(toFile: folder + "/" + answer.file, atomically: true, encoding: .utf8)
        }
        for program in Self.programs {
            let queries = Self.answers.filter { $0.program == program }.map { answer in
                // An empty query is the program alone (`wlr-randr`), not any arguments.
                "    \"\(answer.query)\"\(answer.query.isEmpty ? "" : "*")) cat \"$dir/\(answer.file)\"; exit 0 ;;\n"
            }
            // hyprctl answers ok per command, as Hyprland does; the others print nothing or what sway prints.
            let success =
                switch program {
                case "hyprctl": #"printf 'ok\n\nok\n\nok\n'"#
                case "swaymsg": #"printf '[ { "success": true } ]\n'"#
                default: ":"
                }
            let script = """
                #!/bin/sh
                dir=$(dirname "$0")
                { printf '%s' \(program); for word in "$@"; do printf '\\t%s' "$word"; done; printf '\\n'; } >>"$dir/record"
                case "$*" in
                \(queries.joined())esac
                if [ -e "$dir/fail" ]; then echo "\(program): refused by the stand-in" >&2; exit 2; fi
                if [ -e "$dir/hang" ]; then sleep 600 & echo $! >"$dir/hung.pid"; wait; fi
                \(success)

                """
            try Self.writeProgram(script, to: folder + "/" + program)
        }
    }

    /// `PATH` with the stand-ins first.
    var path: String {
        folder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    }

    /// Every run so far, queries included: the program and its arguments.
    var runs: [[String]] {
        let text = (try? String(contentsOfFile: folder + "/record", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        }
    }

    /// The runs that change something: the queries left out.
    var changes: [[String]] {
        runs.filter { run in
            !Self.answers.contains { answer in
                let arguments = run.dropFirst().joined(separator: " ")
                return answer.program == run.first
                    && (answer.query.isEmpty ? arguments.isEmpty : arguments.hasPrefix(answer.query))
            }
        }
    }

    /// Writes an executable script through a descriptor that no child process can inherit. Tests run in
    /// parallel in one process: a program another test starts meanwhile would otherwise keep the script
    /// open for writing for its whole life, and running the script would fail with ETXTBSY.
    static func writeProgram(_ text: String, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard descriptor >= 0 else { throw PeerError("cannot write \(path): \(Errno.current)") }
        defer { close(descriptor) }
        do {
            try FileDescriptor(rawValue: descriptor).writeAll(text)
        } catch {
            throw PeerError("cannot write \(path): \(error)")
        }
    }

    /// Makes the changing runs fail (status 2), or work again.
    func setFailing(_ failing: Bool) throws {
        try setFlag("fail", failing)
    }

    /// Makes the changing runs hang, or end again.
    func setHanging(_ hanging: Bool) throws {
        try setFlag("hang", hanging)
    }

    private func setFlag(_ name: String, _ set: Bool) throws {
        let path = folder + "/" + name
        if set {
            _ = FileManager.default.createFile(atPath: path, contents: nil)
        } else {
            try FileManager.default.removeItem(atPath: path)
        }
    }

    static let swayOutputs = """
        [
          {"id": 3, "type": "output", "name": "HDMI-A-1", "active": true, "make": "Dell", "transform": "normal"},
          {"id": 4, "type": "output", "name": "eDP-1", "active": true, "make": "BOE", "transform": "normal"},
          {"id": 5, "type": "output", "name": "DP-3", "active": false, "make": "LG", "transform": "normal"}
        ]
        """

    static let hyprlandMonitors = """
        [{
            "id": 0, "name": "eDP-1", "description": "BOE 0x0BCA", "make": "BOE", "model": "0x0BCA",
            "width": 2256, "height": 1504, "refreshRate": 59.99900, "x": 0, "y": 0,
            "activeWorkspace": {"id": 1, "name": "1"}, "reserved": [0, 0, 0, 0], "scale": 1.50,
            "transform": 0, "focused": true, "dpmsStatus": true, "vrr": false, "disabled": false
        },{
            "id": 1, "name": "DP-2", "description": "Dell U2720Q", "make": "Dell", "model": "U2720Q",
            "width": 3840, "height": 2160, "refreshRate": 60.00000, "x": -2560, "y": -200,
            "activeWorkspace": {"id": 2, "name": "2"}, "reserved": [0, 0, 0, 0], "scale": 1.50,
            "transform": 0, "focused": false, "dpmsStatus": true, "vrr": false, "disabled": false
        }]
        """

    static let xrandrQuery = """
        Screen 0: minimum 320 x 200, current 4480 x 1440, maximum 16384 x 16384
        eDP-1 connected primary 1920x1080+0+0 (normal left inverted right x axis y axis) 309mm x 174mm
           1920x1080     60.02*+  60.01    59.97
           1680x1050     59.95    59.88
        HDMI-1 disconnected (normal left inverted right x axis y axis)
        DP-1 connected 2560x1440+1920+0 (normal left inverted right x axis y axis) 597mm x 336mm
           2560x1440     59.95*+

        """

    static let xinputList = """
        ⎡ Virtual core pointer                    \tid=2\t[master pointer  (3)]
        \tReporting 3 classes:
        \t\tClass originated from: 2. Type: XIButtonClass
        ⎜   ↳ Virtual core XTEST pointer              \tid=4\t[slave  pointer  (2)]
        \tReporting 3 classes:
        \t\tClass originated from: 4. Type: XIValuatorClass
        \t\tDetail for Valuator 0:
        \t\t  Label: Rel X
        \t\t  Mode: relative
        ⎜   ↳ ELAN Touchscreen                        \tid=11\t[slave  pointer  (2)]
        \tReporting 4 classes:
        \t\tClass originated from: 11. Type: XIValuatorClass
        \t\tDetail for Valuator 0:
        \t\t  Label: Abs MT Position X
        \t\t  Mode: absolute
        \t\tClass originated from: 11. Type: XITouchClass
        \t\tTouch mode: direct
        \t\tMax number of touches: 10
        ⎜   ↳ SYNA8004:00 06CB:CE44 Touchpad          \tid=12\t[slave  pointer  (2)]
        \tReporting 3 classes:
        \t\tClass originated from: 12. Type: XIValuatorClass
        \t\tDetail for Valuator 0:
        \t\t  Label: Rel X
        \t\t  Mode: relative
        ⎜   ↳ Wacom HID 51E9 Pen stylus               \tid=13\t[slave  pointer  (2)]
        \tReporting 8 classes:
        \t\tClass originated from: 13. Type: XIValuatorClass
        \t\tDetail for Valuator 0:
        \t\t  Label: Abs X
        \t\t  Mode: absolute
        ⎜   ↳ Wacom HID 51E9 Pen eraser               \tid=14\t[slave  pointer  (2)]
        \tReporting 8 classes:
        \t\tClass originated from: 14. Type: XIValuatorClass
        \t\tDetail for Valuator 0:
        \t\t  Label: Abs X
        \t\t  Mode: absolute
        ⎜   ↳ Wacom HID 51E9 Pad pad                  \tid=16\t[slave  pointer  (2)]
        \tReporting 4 classes:
        \t\tClass originated from: 16. Type: XIValuatorClass
        \t\tDetail for Valuator 0:
        \t\t  Label: Abs X
        \t\t  Mode: absolute
        ⎜   ↳ Wacom Intuos S Pen                      \tid=17\t[slave  pointer  (2)]
        \tReporting 8 classes:
        \t\tClass originated from: 17. Type: XIValuatorClass
        \t\tDetail for Valuator 0:
        \t\t  Label: Abs X
        \t\t  Mode: absolute
        ⎣ Virtual core keyboard                   \tid=3\t[master keyboard (2)]
        \tReporting 1 classes:
        \t\tClass originated from: 3. Type: XIKeyClass
            ↳ ELAN Touchscreen                        \tid=15\t[slave  keyboard (3)]
        \tReporting 1 classes:
        \t\tClass originated from: 15. Type: XIKeyClass

        """

    static let kscreenJSON = """
        {
          "features": 3,
          "outputs": [
            {"id": 1, "name": "eDP-1", "type": 7, "connected": true, "enabled": true, "rotation": 1,
             "pos": {"x": 0, "y": 0}, "scale": 1.5, "size": {"width": 2256, "height": 1504}},
            {"id": 2, "name": "HDMI-A-1", "type": 6, "connected": false, "enabled": false, "rotation": 1,
             "pos": {"x": 0, "y": 0}, "scale": 1, "size": {"width": 0, "height": 0}}
          ],
          "screen": {"id": 0, "currentSize": {"width": 2256, "height": 1504}}
        }
        """

    static let wlrRandr = """
        DP-3 "Dell Inc. DELL U2720Q 1234 (DP-3)"
          Make: Dell Inc.
          Model: DELL U2720Q
          Enabled: yes
          Modes:
            3840x2160 px, 59.997002 Hz (preferred, current)
          Position: 1280,0
          Transform: normal
          Scale: 1.500000
        DSI-1 "Unknown Unknown  (DSI-1)"
          Physical size: 110x180 mm
          Enabled: yes
          Modes:
            800x1280 px, 60.000000 Hz (preferred, current)
          Position: 0,0
          Transform: 270
          Scale: 1.000000
        HDMI-A-1 "Unknown Unknown  (HDMI-A-1)"
          Enabled: no
          Modes:
            1920x1080 px, 60.000000 Hz (preferred)

        """

    static let niriOutputs = """
        {
          "HDMI-A-1": {"name": "HDMI-A-1", "make": "Dell", "model": "U2720Q", "serial": null,
            "physical_size": [600, 340], "modes": [{"width": 3840, "height": 2160, "refresh_rate": 60000,
            "is_preferred": true}], "current_mode": null, "is_custom_mode": false, "vrr_supported": false,
            "vrr_enabled": false, "logical": null},
          "eDP-1": {"name": "eDP-1", "make": "BOE", "model": "0x0BCA", "serial": null,
            "physical_size": [290, 190], "modes": [{"width": 2256, "height": 1504, "refresh_rate": 59999,
            "is_preferred": true}], "current_mode": 0, "is_custom_mode": false, "vrr_supported": false,
            "vrr_enabled": false, "logical": {"x": 0, "y": 0, "width": 1504, "height": 1003, "scale": 1.5,
            "transform": "Normal"}}
        }
        """

    static let cosmicList = """
        output "HDMI-A-1" enabled=#false {
          description make="Dell Inc." model="DELL U2720Q"
          physical 600 340
          position 0 0
          scale 1.00
          modes {
            mode 3840 2160 60000 preferred=#true
          }
        }
        output "eDP-1" enabled=#true {
          description make="BOE" model="0x0BCA"
          physical 285 190
          position 0 0
          scale 1.50
          transform "normal"
          modes {
            mode 2256 1504 59999 current=#true preferred=#true
            mode 1920 1200 59950
          }
        }

        """
}
