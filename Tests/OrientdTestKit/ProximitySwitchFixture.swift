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

/// An emulated proximity sensor of the input subsystem, as phones' sensors behind gpio-keys show one: an input device
/// with the switch `SW_FRONT_PROXIMITY` (11) among others (`SW_HEADPHONE_INSERT` 2), on while something is near, and its
/// evdev node, rendered as umockdev description text plus an ioctl record that answers only `EVIOCGSW`, as a
/// recording of iio-sensor-proxy's input proximity driver does (it asks for nothing else).
///
/// The evdev node is a PTY (``EmulatedEvdevNode``): the test writes the switch's events to its master and the daemon
/// reads them as the kernel's.
package struct ProximitySwitchFixture {
    /// The input device's number (`input3`).
    package var inputNumber = 3
    /// The evdev node's number (`event2`).
    package var eventNumber = 2
    /// Whether something is near when the daemon opens the node (the kernel's EVIOCGSW answer).
    package var initiallyNear = false

    package init(initiallyNear: Bool = false) {
        self.initiallyNear = initiallyNear
    }

    /// The device node.
    package var deviceNode: String { "/dev/input/event\(eventNumber)" }

    /// The umockdev description: the input device with its switches (`capabilities/sw` 804: switches 2 and 11) and
    /// its evdev node.
    package var description: String {
        EmulatedEvdevNode.switchDescription(
            inputSyspath: "/sys/devices/platform/gpio-keys/input/input\(inputNumber)",
            eventNumber: eventNumber,
            name: "gpio-keys",
            switches: 0x804,
            udevMarksSwitch: true
        )
    }

    /// Adds the sensor to `testbed` with its ioctl record; `announce` sends the `add` uevents of hotplug.
    package func add(to testbed: Testbed, announce: Bool = false) throws {
        try EmulatedEvdevNode.add(
            description,
            deviceNode: deviceNode,
            ioctlRecord: EmulatedEvdevNode.switchesRecord(initiallyNear ? 0x0804 : 0x0004),
            to: testbed,
            announce: announce
        )
    }

    /// The events the kernel sends when the switch changes: `EV_SW` `SW_FRONT_PROXIMITY`, then `SYN_REPORT`.
    package static func report(near: Bool) -> [UInt8] {
        EmulatedEvdevNode.switchReport(code: 0x0b, on: near)
    }
}
