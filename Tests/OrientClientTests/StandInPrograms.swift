import Foundation
import Glibc
import SystemSupport

/// Stand-ins for `swaymsg`, `hyprctl`, `xrandr` and `xinput`: small shell scripts in a folder put first on
/// `PATH`, each appending its arguments to one record (a line per run, arguments separated by tabs) and
/// answering the queries `orientctl follow` makes with canned text. A run that is not a query fails
/// (status 2, a message on standard error) while the file `fail` exists in the folder.
struct StandInPrograms {
    /// The folder holding the scripts, the canned answers and the record.
    let folder: String

    /// The canned answers: `swaymsg -t get_outputs`, `swaymsg -t get_inputs`, `hyprctl monitors -j`,
    /// `xrandr --query`, `xinput list --long`.
    static let answers: [(program: String, query: String, file: String, text: String)] = [
        ("swaymsg", "-t get_outputs", "sway-outputs.json", swayOutputs),
        ("swaymsg", "-t get_inputs", "sway-inputs.json", swayInputs),
        ("hyprctl", "monitors -j", "hyprland-monitors.json", hyprlandMonitors),
        ("xrandr", "--query", "xrandr-query.txt", xrandrQuery),
        ("xinput", "list --long", "xinput-list.txt", xinputList),
    ]

    /// Writes the scripts and answers into `folder`.
    init(in folder: String) throws {
        self.folder = folder
        for answer in Self.answers {
            try answer.text.write(toFile: folder + "/" + answer.file, atomically: true, encoding: .utf8)
        }
        for program in ["swaymsg", "hyprctl", "xrandr", "xinput"] {
            let queries = Self.answers.filter { $0.program == program }.map { answer in
                "    \"\(answer.query)\"*) cat \"$dir/\(answer.file)\"; exit 0 ;;\n"
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
            !Self.answers.contains {
                $0.program == run.first && run.dropFirst().joined(separator: " ").hasPrefix($0.query)
            }
        }
    }

    /// Writes an executable script through a descriptor that no child process can inherit. Tests run in
    /// parallel in one process: a program another test starts meanwhile would otherwise keep the script
    /// open for writing for its whole life, and running the script would fail with ETXTBSY.
    private static func writeProgram(_ text: String, to path: String) throws {
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
        let path = folder + "/fail"
        if failing {
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

    static let swayInputs = """
        [
          {"identifier": "1:1:AT_Translated_Set_2_keyboard", "name": "AT Translated Set 2 keyboard", "type": "keyboard"},
          {"identifier": "1267:10780:ELAN_Touchscreen", "name": "ELAN Touchscreen", "type": "touch"},
          {"identifier": "1739:52804:SYNA8004:00_06CB:CE44_Touchpad", "name": "SYNA8004 Touchpad", "type": "pointer"},
          {"identifier": "1386:20985:Wacom_HID_51E9_Pen", "name": "Wacom HID 51E9 Pen", "type": "tablet_tool"},
          {"identifier": "1386:20985:Wacom_HID_51E9_Pad", "name": "Wacom HID 51E9 Pad", "type": "tablet_pad"},
          {"identifier": "0:5:Lid_Switch", "name": "Lid Switch", "type": "switch"}
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
        ⎣ Virtual core keyboard                   \tid=3\t[master keyboard (2)]
        \tReporting 1 classes:
        \t\tClass originated from: 3. Type: XIKeyClass
            ↳ ELAN Touchscreen                        \tid=15\t[slave  keyboard (3)]
        \tReporting 1 classes:
        \t\tClass originated from: 15. Type: XIKeyClass

        """
}
