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

import CEvdev
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// orientd's own tablet-mode switch: an input device made through uinput (`/dev/uinput`, libevdev's uinput API) with
/// one switch, `SW_TABLET_MODE`, that says what orientd decided. libinput pairs it with the internal keyboard and
/// touchpad (it turns them off while the switch is on) and desktops read it as a convertible's own switch (mutter's
/// touch mode); see docs/convertibles.md.
///
/// The kernel removes the device when its uinput fd closes: when this is released, or when the process ends in any
/// way. ``TabletModeMonitor`` never watches it (``isOwnDevice(name:)``), so that orientd does not read its own
/// decision back as a real switch.
public final class VirtualTabletSwitch {
    /// The input device's name, by which orientd knows its own device.
    public static let deviceName = "orientd tablet-mode switch"
    /// The bus the device says it is on: `BUS_VIRTUAL`.
    public static let busType: UInt16 = 0x06
    /// The node it is made through.
    public static let uinputNode = "/dev/uinput"

    /// What the switch says now: true tablet mode, false laptop mode.
    public private(set) var tabletMode: Bool
    /// The input device's sysfs path (`/sys/devices/virtual/input/input42`), when the kernel told it.
    public let syspath: String?

    private let device: OpaquePointer
    private let uinput: OpaquePointer

    /// Makes the device (`libevdev_uinput_create_from_device`) and sends its state at once (`EV_SW` and
    /// `SYN_REPORT`), so that a reader opening it finds the state orientd decided.
    /// - Throws: ``SwitchError`` naming the call that failed (no `/dev/uinput`, no permission, a kernel without uinput).
    public init(tabletMode: Bool) throws(SwitchError) {
        guard let device = libevdev_new() else {
            throw SwitchError("libevdev_new", device: Self.uinputNode, errno: Errno(ENOMEM))
        }
        libevdev_set_name(device, Self.deviceName)
        libevdev_set_id_bustype(device, Int32(Self.busType))
        libevdev_set_id_vendor(device, 0)
        libevdev_set_id_product(device, 0)
        libevdev_set_id_version(device, 1)
        guard libevdev_enable_event_code(device, UInt32(EV_SW), UInt32(SW_TABLET_MODE), nil) == 0 else {
            libevdev_free(device)
            throw SwitchError("libevdev_enable_event_code", device: Self.uinputNode, errno: Errno(EINVAL))
        }
        var handle: OpaquePointer?
        let result = libevdev_uinput_create_from_device(device, LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue, &handle)
        guard result == 0, let handle else {
            libevdev_free(device)
            throw SwitchError("libevdev_uinput_create_from_device", device: Self.uinputNode, errno: Errno(-result))
        }
        self.device = device
        uinput = handle
        syspath = libevdev_uinput_get_syspath(handle).map { String(cString: $0) }
        self.tabletMode = !tabletMode
        try set(tabletMode: tabletMode)
    }

    deinit {
        libevdev_uinput_destroy(uinput)
        libevdev_free(device)
    }

    /// Whether an input device is orientd's own switch, by its name.
    public static func isOwnDevice(name: String?) -> Bool {
        name == deviceName
    }

    /// Says tablet mode (true) or laptop mode: `EV_SW SW_TABLET_MODE` and `SYN_REPORT`. Nothing is written when the
    /// switch says so already.
    /// - Throws: ``SwitchError`` when the event cannot be written; the switch keeps its old state.
    public func set(tabletMode: Bool) throws(SwitchError) {
        guard tabletMode != self.tabletMode else { return }
        try write(type: EV_SW, code: SW_TABLET_MODE, value: tabletMode ? 1 : 0)
        try write(type: EV_SYN, code: SYN_REPORT, value: 0)
        self.tabletMode = tabletMode
    }

    private func write(type: Int32, code: Int32, value: Int32) throws(SwitchError) {
        let result = libevdev_uinput_write_event(uinput, UInt32(type), UInt32(code), value)
        guard result == 0 else {
            throw SwitchError("libevdev_uinput_write_event", device: Self.uinputNode, errno: Errno(-result))
        }
    }
}
