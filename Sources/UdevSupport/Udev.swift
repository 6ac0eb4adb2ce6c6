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

import CUdev
package import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// An owned libudev context, for the IIO accelerometer and the input devices of the tablet-mode switch. No libudev
/// pointer leaves this target: what udev knows of a device comes out as a ``UdevDevice`` value.
package final class Udev {
    private let pointer: OpaquePointer

    /// The libudev context, for the extensions in this target.
    var handle: OpaquePointer { pointer }

    /// Opens libudev (`udev_new`).
    /// - Throws: ``UdevError`` with the errno.
    package init() throws(UdevError) {
        guard let created = udev_new() else { throw UdevError(operation: "udev_new", errno: .current) }
        pointer = created
    }

    deinit {
        udev_unref(pointer)
    }

    /// The device `sysname` (`iio:device0`, `event5`) of `subsystem`; nil when udev does not know it.
    /// - Parameter parentAttributes: sysfs attributes to read from the nearest ancestor of the same subsystem
    ///   (`capabilities/sw` of an evdev node's input device).
    package func device(subsystem: String, sysname: String, parentAttributes: [String] = []) -> UdevDevice? {
        guard let device = udev_device_new_from_subsystem_sysname(pointer, subsystem, sysname) else { return nil }
        defer { udev_device_unref(device) }
        return UdevDevice(device, subsystem: subsystem, parentAttributes: parentAttributes)
    }

    /// Every device of `subsystem` that udev lists now (`udev_enumerate_scan_devices`); none when it cannot.
    package func devices(subsystem: String, parentAttributes: [String] = []) -> [UdevDevice] {
        guard let enumerate = udev_enumerate_new(pointer) else { return [] }
        defer { udev_enumerate_unref(enumerate) }
        guard udev_enumerate_add_match_subsystem(enumerate, subsystem) >= 0,
            udev_enumerate_scan_devices(enumerate) >= 0
        else { return [] }
        var devices: [UdevDevice] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            if let syspath = udev_list_entry_get_name(current),
                let device = udev_device_new_from_syspath(pointer, syspath)
            {
                if let record = UdevDevice(device, subsystem: subsystem, parentAttributes: parentAttributes) {
                    devices.append(record)
                }
                udev_device_unref(device)
            }
            entry = udev_list_entry_get_next(current)
        }
        return devices
    }

    /// A monitor of the netlink socket of udev's events, filtered to `subsystem`, receiving; the caller unrefs it.
    func makeMonitor(subsystem: String) throws(UdevError) -> OpaquePointer {
        guard let monitor = udev_monitor_new_from_netlink(pointer, "udev") else {
            throw UdevError(operation: "udev_monitor_new_from_netlink", errno: .current)
        }
        var result = udev_monitor_filter_add_match_subsystem_devtype(monitor, subsystem, nil)
        if result >= 0 { result = udev_monitor_enable_receiving(monitor) }
        guard result >= 0 else {
            udev_monitor_unref(monitor)
            throw UdevError(operation: "udev_monitor_enable_receiving", errno: Errno(result))
        }
        return monitor
    }
}

/// A failed libudev call: the C function and the errno.
package struct UdevError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The C function that failed, such as `udev_monitor_enable_receiving`.
    package var operation: String
    /// Why.
    package var errno: Errno

    package init(operation: String, errno: Errno) {
        self.operation = operation
        self.errno = errno
    }

    /// The failure as one line, such as `udev_new: Cannot allocate memory`.
    package var description: String {
        "\(operation): \(errno)"
    }
}
