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

/// What udev tells about input devices and hotplug, as the tablet-mode monitor reads it.
@Suite struct UdevRecordTests {
    /// Only evdev nodes with a device node are records; they may have a switch by udev's property or the kernel's
    /// bitmap of the input device.
    @Test(
        arguments: [
            (
                UdevDevice(
                    sysname: "event3",
                    syspath: "/s",
                    devnode: "/dev/input/event3",
                    properties: ["ID_INPUT_SWITCH": "1"]
                ), true
            ),
            (
                UdevDevice(
                    sysname: "event4",
                    syspath: "/s",
                    devnode: "/dev/input/event4",
                    parentAttributes: ["capabilities/sw": "2"]
                ), true
            ),
            (
                UdevDevice(
                    sysname: "event5",
                    syspath: "/s",
                    devnode: "/dev/input/event5",
                    parentAttributes: ["capabilities/sw": "1"]
                ), false
            ),
            (
                UdevDevice(
                    sysname: "event6",
                    syspath: "/s",
                    devnode: "/dev/input/event6",
                    properties: ["ID_INPUT_KEY": "1"]
                ), false
            ),
        ]
    )
    func anEvdevNodeMayHaveASwitch(device: UdevDevice, mayHaveSwitch: Bool) throws {
        let record = try #require(InputDeviceRecord(device))
        #expect(record.sysname == device.sysname)
        #expect(record.devnode == device.devnode)
        #expect(record.mayHaveTabletModeSwitch == mayHaveSwitch)
    }

    @Test(
        arguments: [
            UdevDevice(sysname: "input7", syspath: "/s", properties: ["ID_INPUT_SWITCH": "1"]),
            UdevDevice(sysname: "event7", syspath: "/s", devnode: nil, properties: ["ID_INPUT_SWITCH": "1"]),
            UdevDevice(sysname: "mouse0", syspath: "/s", devnode: "/dev/input/mouse0"),
        ]
    )
    func otherInputDevicesAreNoRecords(device: UdevDevice) {
        #expect(InputDeviceRecord(device) == nil)
    }

    /// udev's action strings are read once, into the enum both monitors switch over.
    @Test(
        arguments: [
            ("add", HotplugAction.add), ("remove", .remove), ("change", .change), ("bind", .bind), ("unbind", .unbind),
            ("move", .other("move")), ("", .other("")),
        ]
    )
    func actionsAreParsedOnce(text: String, action: HotplugAction) {
        #expect(HotplugAction(text) == action)
        #expect(action.description == text)
    }
}
