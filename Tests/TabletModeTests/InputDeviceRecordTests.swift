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

import Testing
import UdevSupport

@testable import TabletMode

/// Which input devices are opened as possible tablet-mode switches, and in which order they are listed.
@Suite struct InputDeviceRecordTests {
    /// `capabilities/sw` as the kernel writes it: hexadecimal words, the lowest last.
    @Test(
        arguments: [
            ("2", true),  // SW_TABLET_MODE alone (intel-vbtn, intel-hid)
            ("3", true),  // SW_LID and SW_TABLET_MODE
            ("1", false),  // a lid switch
            ("4000", false),  // SW_LINEIN_INSERT (bit 14) only
            ("0 2", true),  // more than one word
            ("2 0", false),  // bit 1 of the higher word is not SW_TABLET_MODE
            ("2\n", true),
            ("", false),
            ("zz", false),
        ]
    )
    func tabletModeBit(capabilities: String, expected: Bool) {
        #expect(InputDeviceRecord.hasTabletModeBit(capabilities) == expected)
    }

    /// orientd's own virtual switch is never opened, though udev marks it a switch with `SW_TABLET_MODE`.
    @Test(arguments: [("orientd tablet-mode switch", false), ("Intel HID switches", true)])
    func theOwnVirtualSwitchIsNotOpened(name: String, opened: Bool) {
        let device = UdevDevice(
            sysname: "event20",
            syspath: "/sys/devices/virtual/input/input420/event20",
            devnode: "/dev/input/event20",
            properties: ["ID_INPUT": "1", "ID_INPUT_SWITCH": "1"],
            parentAttributes: ["capabilities/sw": "2", "name": name]
        )
        #expect(InputDeviceRecord(device)?.mayHaveTabletModeSwitch == opened)
    }

    @Test func noCapabilitiesMeansNoSwitch() {
        #expect(!InputDeviceRecord.hasTabletModeBit(nil))
    }

    @Test func nodesAreOrderedByNumber() {
        let names = ["event10", "event2", "event1", "event21", "event3"]
        #expect(names.sorted(by: InputDeviceRecord.nodeOrder) == ["event1", "event2", "event3", "event10", "event21"])
    }
}
