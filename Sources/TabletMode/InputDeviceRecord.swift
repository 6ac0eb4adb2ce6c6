import CUdev
import IIOSensor

/// What udev knows of one evdev node (`/dev/input/eventN`), enough to decide whether to open it.
struct InputDeviceRecord: Equatable {
    /// The udev name (`event5`).
    var sysname: String
    /// The device node (`/dev/input/event5`).
    var devnode: String
    /// Whether the device may have a tablet-mode switch: udev's `ID_INPUT_SWITCH=1` (any switch), or bit
    /// `SW_TABLET_MODE` in the kernel's `capabilities/sw` of its input device. Only these are opened, so that
    /// keyboards, mice and touchpads are never touched.
    var mayHaveTabletModeSwitch: Bool

    /// The evdev nodes udev lists now (`udev_enumerate_scan_devices` on subsystem `input`).
    static func all(_ udev: Udev) -> [InputDeviceRecord] {
        guard let enumerate = udev_enumerate_new(udev.pointer) else { return [] }
        defer { udev_enumerate_unref(enumerate) }
        guard udev_enumerate_add_match_subsystem(enumerate, "input") >= 0,
            udev_enumerate_scan_devices(enumerate) >= 0
        else { return [] }
        var records: [InputDeviceRecord] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            if let syspath = udev_list_entry_get_name(current),
                let device = udev_device_new_from_syspath(udev.pointer, syspath)
            {
                if let record = InputDeviceRecord(device) { records.append(record) }
                udev_device_unref(device)
            }
            entry = udev_list_entry_get_next(current)
        }
        return records.sorted { nodeOrder($0.sysname, $1.sysname) }
    }

    /// Orders evdev names by number: `event2` before `event10`.
    static func nodeOrder(_ first: String, _ second: String) -> Bool {
        first.count != second.count ? first.count < second.count : first < second
    }

    /// The evdev node `sysname` (`event5`); nil when udev does not know it or it is not an evdev node.
    static func named(_ sysname: String, _ udev: Udev) -> InputDeviceRecord? {
        guard let device = udev_device_new_from_subsystem_sysname(udev.pointer, "input", sysname) else { return nil }
        defer { udev_device_unref(device) }
        return InputDeviceRecord(device)
    }

    /// The record of a `udev_device`; nil unless it is an evdev node (`eventN` with a device node).
    private init?(_ device: OpaquePointer) {
        guard let sysname = udev_device_get_sysname(device).map({ String(cString: $0) }), sysname.hasPrefix("event"),
            let devnode = udev_device_get_devnode(device).map({ String(cString: $0) })
        else { return nil }
        self.sysname = sysname
        self.devnode = devnode
        let switchProperty = udev_device_get_property_value(device, "ID_INPUT_SWITCH").map { String(cString: $0) }
        var capabilities: String?
        if let parent = udev_device_get_parent_with_subsystem_devtype(device, "input", nil) {
            // The parent belongs to the child: not unreferenced here.
            capabilities = udev_device_get_sysattr_value(parent, "capabilities/sw").map { String(cString: $0) }
        }
        mayHaveTabletModeSwitch = switchProperty == "1" || Self.hasTabletModeBit(capabilities)
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
