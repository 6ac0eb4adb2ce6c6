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

/// What the evdev fixtures (``TabletSwitchFixture``, ``InputAccelerometerFixture``) share: the umockdev ioctl record
/// of an input device, the `struct input_event`s a test writes to its node, and adding both to a testbed.
///
/// The evdev node is a PTY: the test writes events to its master and the daemon reads them as the kernel's. The ioctl
/// record answers every request `libevdev_new_from_fd` makes (libevdev 1.13, 64-bit), each with the exact size
/// libevdev asks for: umockdev matches request codes, sizes included.
package enum EmulatedEvdevNode {
    /// The ioctl record of a device named `name`: version, id, name, the event-type bitmaps (`eventTypes`; `axes`
    /// among the absolute axes and `switches` among the switches; nothing else), the properties, no keys or LEDs
    /// held, the switches held (`switchState`), and then `EVIOCGABS` of each of `absInfo` (``axesRecord(_:)``).
    static func ioctlRecord(
        name: String,
        eventTypes: UInt8,
        axes: UInt8 = 0,
        switches: UInt8 = 0,
        properties: UInt8 = 0,
        switchState: UInt8 = 0,
        absInfo: [[Int32]] = []
    ) -> String {
        let nameBytes = Array(name.utf8) + [0]
        let lines = [
            "EVIOCGVERSION 0 01000100",
            "EVIOCGID 0 1900000000000000",
            "EVIOCGNAME(0) \(nameBytes.count) \(hex(nameBytes, size: 255))",
            "EVIOCGBIT(0) 8 \(hex([eventTypes], size: 8))",
            "EVIOCGBIT(1) 96 \(hex([], size: 96))",
            "EVIOCGBIT(2) 8 \(hex([], size: 8))",
            "EVIOCGBIT(3) 8 \(hex([axes], size: 8))",
            "EVIOCGBIT(4) 8 \(hex([], size: 8))",
            "EVIOCGBIT(5) 8 \(hex([switches], size: 8))",
            "EVIOCGBIT(17) 8 \(hex([], size: 8))",
            "EVIOCGBIT(18) 8 \(hex([], size: 8))",
            "EVIOCGBIT(21) 16 \(hex([], size: 16))",
            "EVIOCGPROP(0) 8 \(hex([properties], size: 8))",
            "EVIOCGKEY(0) 96 \(hex([], size: 96))",
            "EVIOCGLED(0) 8 \(hex([], size: 8))",
            "EVIOCGSW(0) 8 \(hex([switchState], size: 8))",
        ]
        return lines.joined(separator: "\n") + "\n" + axesRecord(absInfo)
    }

    /// The ioctl record of `EVIOCGABS` of each of `absInfo` (code 0, 1, …): the six fields of `struct input_absinfo`
    /// (value, minimum, maximum, fuzz, flat, resolution). Alone, it is the record of a node that answers nothing else,
    /// as a recording of a program that asks only for the axes (iio-sensor-proxy's input accelerometer driver).
    static func axesRecord(_ absInfo: [[Int32]]) -> String {
        absInfo.enumerated().map { code, fields in
            // struct input_absinfo: six s32, little-endian.
            let bytes = fields.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) }
            return "EVIOCGABS(\(code)) 0 \(hex(bytes, size: 24))\n"
        }.joined()
    }

    /// The ioctl record of a node that answers only `EVIOCGSW`, with the switches held (`switchState`), as a recording
    /// of a program that asks only for the switches (iio-sensor-proxy's input proximity driver).
    static func switchesRecord(_ switchState: UInt16) -> String {
        "EVIOCGSW(0) 8 \(hex(withUnsafeBytes(of: switchState.littleEndian, Array.init), size: 8))\n"
    }

    /// Adds the devices of `description` to `testbed` and `ioctlRecord` to `deviceNode`; `announce` sends the `add`
    /// uevents of hotplug after the record is in place, so that the daemon can open the node as soon as it hears of it.
    static func add(
        _ description: String,
        deviceNode: String,
        ioctlRecord: String,
        to testbed: Testbed,
        announce: Bool
    ) throws {
        let syspaths = try testbed.add(description)
        try testbed.loadIoctl(deviceNode, record: ioctlRecord)
        if announce {
            for syspath in syspaths { try testbed.uevent(syspath, action: "add") }
        }
    }

    /// The umockdev description of an input device with switches (`EV_SYN`, `EV_SW`; `switches`, the kernel's
    /// `capabilities/sw` bit mask) and its evdev node `event<eventNumber>`, both marked by udev's input_id
    /// `ID_INPUT_SWITCH=1` when `udevMarksSwitch`.
    static func switchDescription(
        inputSyspath: String,
        eventNumber: Int,
        name: String,
        switches: UInt16,
        udevMarksSwitch: Bool
    ) -> String {
        let marks = udevMarksSwitch ? "\nE: ID_INPUT_SWITCH=1" : ""
        return """
            P: \(inputSyspath.dropFirst(4))
            E: SUBSYSTEM=input
            E: ID_INPUT=1\(marks)
            A: name=\(name)\\n
            A: capabilities/ev=21\\n
            A: capabilities/sw=\(String(switches, radix: 16))\\n

            P: \(inputSyspath.dropFirst(4))/event\(eventNumber)
            N: input/event\(eventNumber)
            E: DEVNAME=/dev/input/event\(eventNumber)
            E: SUBSYSTEM=input
            E: ID_INPUT=1\(marks)
            A: dev=13:\(64 + eventNumber)\\n

            """
    }

    /// The events the kernel sends when switch `code` changes: `EV_SW`, then `SYN_REPORT`.
    package static func switchReport(code: UInt16, on: Bool) -> [UInt8] {
        inputEvent(type: 0x05, code: code, value: on ? 1 : 0) + inputEvent(type: 0, code: 0, value: 0)
    }

    /// One `struct input_event` of a 64-bit machine: a zero timeval (two longs), type, code, value (little-endian).
    package static func inputEvent(type: UInt16, code: UInt16, value: Int32) -> [UInt8] {
        [UInt8](repeating: 0, count: 16) + withUnsafeBytes(of: type.littleEndian, Array.init)
            + withUnsafeBytes(of: code.littleEndian, Array.init) + withUnsafeBytes(of: value.littleEndian, Array.init)
    }

    /// Upper-case hex of `bytes` padded with zeros to `size` bytes, as ioctl records write buffers.
    private static func hex(_ bytes: [UInt8], size: Int) -> String {
        (bytes + [UInt8](repeating: 0, count: size - bytes.count)).map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
    }
}
