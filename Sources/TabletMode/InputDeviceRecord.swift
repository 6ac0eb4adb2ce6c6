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

import UdevSupport

/// What udev knows of one evdev node (`/dev/input/eventN`), enough to decide whether to open it.
struct InputDeviceRecord: Equatable {
    /// The udev name (`event5`).
    var sysname: String
    /// The device node (`/dev/input/event5`).
    var devnode: String
    /// Whether the device may have a tablet-mode switch: udev's `ID_INPUT_SWITCH=1` (any switch), or bit
    /// `SW_TABLET_MODE` in the kernel's `capabilities/sw` of its input device. Only these are opened, so that
    /// keyboards, mice and touchpads are never touched; never orientd's own ``VirtualTabletSwitch``.
    var mayHaveTabletModeSwitch: Bool

    /// The evdev nodes udev lists now (subsystem `input`).
    static func all(_ udev: Udev) -> [InputDeviceRecord] {
        udev.devices(subsystem: "input", parentAttributes: [capabilitiesAttribute, nameAttribute]).compactMap(
            InputDeviceRecord.init
        )
        .sorted { nodeOrder($0.sysname, $1.sysname) }
    }

    /// Orders evdev names by number: `event2` before `event10`.
    static func nodeOrder(_ first: String, _ second: String) -> Bool {
        first.count != second.count ? first.count < second.count : first < second
    }

    /// The evdev node `sysname` (`event5`); nil when udev does not know it or it is not an evdev node.
    static func named(_ sysname: String, _ udev: Udev) -> InputDeviceRecord? {
        udev.device(subsystem: "input", sysname: sysname, parentAttributes: [capabilitiesAttribute, nameAttribute])
            .flatMap(InputDeviceRecord.init)
    }

    /// The switches the kernel says the input device has, as a bitmap.
    private static let capabilitiesAttribute = "capabilities/sw"
    /// The input device's name, by which orientd knows its own virtual switch.
    private static let nameAttribute = "name"

    /// The record of a udev device; nil unless it is an evdev node (`eventN` with a device node).
    init?(_ device: UdevDevice) {
        guard device.sysname.hasPrefix("event"), let devnode = device.devnode else { return nil }
        sysname = device.sysname
        self.devnode = devnode
        // libudev gives attribute values without their trailing newline.
        let name = device.parentAttributes[Self.nameAttribute]
        mayHaveTabletModeSwitch =
            !VirtualTabletSwitch.isOwnDevice(name: name)
            && (device.properties["ID_INPUT_SWITCH"] == "1"
                || Self.hasTabletModeBit(device.parentAttributes[Self.capabilitiesAttribute]))
    }

    /// Whether a `capabilities/sw` bitmap (hexadecimal words, the lowest last: `2`, `0 2`) has bit 1,
    /// `SW_TABLET_MODE`.
    static func hasTabletModeBit(_ capabilities: String?) -> Bool {
        guard let lowest = capabilities?.split(whereSeparator: { $0 == " " || $0 == "\n" }).last,
            let word = UInt64(lowest, radix: 16)
        else { return false }
        return word & 0b10 != 0
    }
}
