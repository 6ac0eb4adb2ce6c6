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

/// What udev knows of one device, read at once.
package struct UdevDevice: Sendable, Hashable {
    /// The kernel name (`iio:device0`, `event5`).
    package var sysname: String
    /// The sysfs path (`/sys/devices/…/iio:device0`).
    package var syspath: String
    /// The device node (`/dev/iio:device0`), if it has one.
    package var devnode: String?
    /// Its properties (`ACCEL_MOUNT_MATRIX`, `ACCEL_LOCATION`, `DEVNAME`, `ID_INPUT_SWITCH`…).
    package var properties: [String: String]
    /// The attributes asked for of the nearest ancestor of the same subsystem, those it has.
    package var parentAttributes: [String: String]

    /// A record from its parts, for tests.
    package init(
        sysname: String,
        syspath: String,
        devnode: String? = nil,
        properties: [String: String] = [:],
        parentAttributes: [String: String] = [:]
    ) {
        self.sysname = sysname
        self.syspath = syspath
        self.devnode = devnode
        self.properties = properties
        self.parentAttributes = parentAttributes
    }

    /// The record of a `udev_device`; nil without a sysname.
    init?(_ device: OpaquePointer, subsystem: String, parentAttributes names: [String]) {
        guard let sysname = udev_device_get_sysname(device).map({ String(cString: $0) }) else { return nil }
        self.sysname = sysname
        syspath =
            udev_device_get_syspath(device).map { String(cString: $0) } ?? "/sys/bus/\(subsystem)/devices/\(sysname)"
        devnode = udev_device_get_devnode(device).map { String(cString: $0) }
        properties = [:]
        var entry = udev_device_get_properties_list_entry(device)
        while let current = entry {
            if let name = udev_list_entry_get_name(current), let value = udev_list_entry_get_value(current) {
                properties[String(cString: name)] = String(cString: value)
            }
            entry = udev_list_entry_get_next(current)
        }
        parentAttributes = [:]
        // The parent belongs to the child: not unreferenced here.
        if !names.isEmpty, let parent = udev_device_get_parent_with_subsystem_devtype(device, subsystem, nil) {
            for name in names {
                if let value = udev_device_get_sysattr_value(parent, name) {
                    parentAttributes[name] = String(cString: value)
                }
            }
        }
    }
}
