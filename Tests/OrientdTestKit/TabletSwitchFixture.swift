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

/// An emulated convertible's tablet-mode switch: an input device with `SW_TABLET_MODE` (as intel-hid, intel-vbtn,
/// or the ACPI tablet-mode device show it), rendered as umockdev description text plus the ioctl record libevdev
/// reads it through.
///
/// The evdev node is a PTY (``EmulatedEvdevNode``): the test writes `struct input_event`s to its master and the daemon
/// reads them as the kernel's events.
package struct TabletSwitchFixture {
    /// The input device's number (`input7`).
    package var inputNumber = 7
    /// The evdev node's number (`event5`).
    package var eventNumber = 5
    /// The input device's name.
    package var name = "Intel HID switches"
    /// Whether the switch reads tablet mode when the daemon opens it (the kernel's EVIOCGSW answer).
    package var initiallyTablet = false
    /// The switches the device has, as the kernel's `capabilities/sw` bitmap: bit 1 `SW_TABLET_MODE`, bit 0
    /// `SW_LID` (a lid switch only: 0x01).
    package var switchBits: UInt8 = 0x02
    /// Whether udev's input_id marked it `ID_INPUT_SWITCH=1` (false: a udev database without it, where only the
    /// kernel's capabilities tell).
    package var udevMarksSwitch = true
    /// The sysfs folder of the input device's parent: a platform device's, or `/sys/devices/virtual` for a device
    /// made through uinput.
    package var parentPath = "/sys/devices/platform/INT33D6:00"

    package init(
        inputNumber: Int = 7,
        eventNumber: Int = 5,
        name: String = "Intel HID switches",
        initiallyTablet: Bool = false,
        switchBits: UInt8 = 0x02,
        udevMarksSwitch: Bool = true,
        parentPath: String = "/sys/devices/platform/INT33D6:00"
    ) {
        self.inputNumber = inputNumber
        self.eventNumber = eventNumber
        self.name = name
        self.initiallyTablet = initiallyTablet
        self.switchBits = switchBits
        self.udevMarksSwitch = udevMarksSwitch
        self.parentPath = parentPath
    }

    /// The input device's sysfs path.
    package var inputSyspath: String { parentPath + "/input/input\(inputNumber)" }
    /// The evdev node's sysfs path.
    package var syspath: String { inputSyspath + "/event\(eventNumber)" }
    /// The device node.
    package var deviceNode: String { "/dev/input/event\(eventNumber)" }

    /// The umockdev description: the input device with its capabilities (EV_SYN, EV_SW; ``switchBits``), and its
    /// evdev node, both with udev's `ID_INPUT_SWITCH` when ``udevMarksSwitch``.
    package var description: String {
        EmulatedEvdevNode.switchDescription(
            inputSyspath: inputSyspath,
            eventNumber: eventNumber,
            name: name,
            switches: UInt16(switchBits),
            udevMarksSwitch: udevMarksSwitch
        )
    }

    /// The ioctl record: version, id, name, the event-type bitmaps (EV_SYN and EV_SW; ``switchBits`` among the
    /// switches; nothing else), no properties, no keys or LEDs held, and the switch state.
    package var ioctlRecord: String {
        EmulatedEvdevNode.ioctlRecord(
            name: name,
            eventTypes: 0x21,
            switches: switchBits,
            switchState: initiallyTablet ? 0x02 : 0
        )
    }

    /// Adds the switch to `testbed` with its ioctl record; `announce` sends the `add` uevents of hotplug after the
    /// record is in place, so that the daemon can open the node as soon as it hears of it.
    package func add(to testbed: Testbed, announce: Bool = false) throws {
        try EmulatedEvdevNode.add(
            description,
            deviceNode: deviceNode,
            ioctlRecord: ioctlRecord,
            to: testbed,
            announce: announce
        )
    }

    /// Flips the switch: an `EV_SW SW_TABLET_MODE` event and its `SYN_REPORT`, as the kernel sends them.
    package func set(tablet: Bool, on testbed: Testbed) throws {
        try testbed.write(EmulatedEvdevNode.switchReport(code: 0x01, on: tablet), to: deviceNode)
    }

    /// Sends `SYN_DROPPED`, as the kernel does when a reader's buffer overflowed: events were lost, and the reader
    /// must ask the kernel for the state (EVIOCGSW, answered from the ioctl record).
    package func dropEvents(on testbed: Testbed) throws {
        try testbed.write(EmulatedEvdevNode.inputEvent(type: 0, code: 3, value: 0), to: deviceNode)
    }
}
