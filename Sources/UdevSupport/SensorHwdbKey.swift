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

/// The key under which systemd's `60-sensor.rules` looks a sensor up in the hwdb, built the same way: the first rule
/// of that file that applies to the device gives it.
///
/// For an IIO device under a `usb`, `i2c` or `platform` parent: `sensor:LABEL:modalias:MODALIAS:DMI` when it has a
/// label; for cros-ec-accel without one, its `location` (`lid`, `base`) as the label `accel-display` or `accel-base`;
/// else `sensor:modalias:MODALIAS:DMI`. For an input accelerometer under an `acpi` parent:
/// `sensor:modalias:acpi:HID:DMI`; under a `platform` one: `sensor:modalias:platform:NAME:DMI`. MODALIAS is the
/// parent's, DMI the machine's `/sys/class/dmi/id/modalias` (it begins with `dmi:`).
package struct SensorHwdbKey: Sendable, Hashable {
    /// The whole key, as udev builds it for this machine.
    package var key: String
    /// The label part (`accel-display`), if the key has one.
    package var label: String?
    /// The parent's modalias (`acpi:BOSC0200:BOSC0200:`, `platform:cros-ec-accel`), or `acpi:HID` / `platform:NAME`
    /// for an input accelerometer.
    package var modalias: String
    /// The machine's DMI modalias, empty when the kernel has none.
    package var dmi: String

    package init(label: String?, modalias: String, dmi: String) {
        self.label = label
        self.modalias = modalias
        self.dmi = dmi
        key = "sensor:" + (label.map { "\($0):" } ?? "") + "modalias:\(modalias):\(dmi)"
    }

    /// One field of the DMI modalias (`svn`, `pn`, `sku`…), or nil.
    package func dmiField(_ name: String) -> String? {
        dmi.split(separator: ":").first { $0.hasPrefix(name) && !$0.dropFirst(name.count).isEmpty }
            .map { String($0.dropFirst(name.count)) }
    }
}

extension Udev {
    /// The hwdb key of the device `sysname` of `subsystem` (`iio` or `input`), as `60-sensor.rules` builds it; nil
    /// when no rule of that file applies to it (then no hwdb entry can reach it).
    package func sensorHwdbKey(subsystem: String, sysname: String) -> SensorHwdbKey? {
        guard let device = udev_device_new_from_subsystem_sysname(handle, subsystem, sysname) else { return nil }
        defer { udev_device_unref(device) }
        let dmi = machineModalias() ?? ""
        func attribute(_ device: OpaquePointer, _ name: String) -> String? {
            udev_device_get_sysattr_value(device, name).map { String(cString: $0) }
        }
        /// The nearest ancestor (or the device) whose subsystem is one of `subsystems`.
        func ancestor(in subsystems: Set<String>) -> OpaquePointer? {
            var current: OpaquePointer? = device
            while let node = current {
                if let name = udev_device_get_subsystem(node).map({ String(cString: $0) }), subsystems.contains(name) {
                    return node
                }
                current = udev_device_get_parent(node)
            }
            return nil
        }
        /// `$attr{name}`: the device's own attribute, else the matched parent's.
        func matchedAttribute(_ name: String, parent: OpaquePointer) -> String {
            attribute(device, name) ?? attribute(parent, name) ?? ""
        }
        switch subsystem {
        case "iio":
            guard sysname.hasPrefix("iio"), let parent = ancestor(in: ["usb", "i2c", "platform"]) else { return nil }
            let modalias = matchedAttribute("modalias", parent: parent)
            if let label = attribute(device, "label"), !label.isEmpty {
                return SensorHwdbKey(label: label, modalias: modalias, dmi: dmi)
            }
            let parentSubsystem = udev_device_get_subsystem(parent).map { String(cString: $0) }
            if parentSubsystem == "platform", let name = attribute(device, "name"),
                name == "cros-ec-accel" || name == "cros-ec-accel-legacy"
            {
                switch attribute(device, "location") {
                case "base": return SensorHwdbKey(label: "accel-base", modalias: modalias, dmi: dmi)
                case "lid": return SensorHwdbKey(label: "accel-display", modalias: modalias, dmi: dmi)
                default: break
                }
            }
            return SensorHwdbKey(label: nil, modalias: modalias, dmi: dmi)
        case "input":
            guard let parent = ancestor(in: ["acpi", "platform"]) else { return nil }
            let parentSubsystem = udev_device_get_subsystem(parent).map { String(cString: $0) }
            if parentSubsystem == "acpi" {
                return SensorHwdbKey(label: nil, modalias: "acpi:" + matchedAttribute("hid", parent: parent), dmi: dmi)
            }
            let name = udev_device_get_sysname(parent).map { String(cString: $0) } ?? ""
            return SensorHwdbKey(label: nil, modalias: "platform:" + name, dmi: dmi)
        default:
            return nil
        }
    }

    /// `/sys/class/dmi/id/modalias`, through udev (so that an emulated machine's is read); nil without DMI.
    package func machineModalias() -> String? {
        guard let dmi = udev_device_new_from_subsystem_sysname(handle, "dmi", "id") else { return nil }
        defer { udev_device_unref(dmi) }
        return udev_device_get_sysattr_value(dmi, "modalias").map { String(cString: $0) }
    }

    /// The attributes of the machine's DMI device (`/sys/class/dmi/id`), sorted by name; none without DMI.
    package func machineAttributes() -> [(String, String)] {
        guard let dmi = udev_device_new_from_subsystem_sysname(handle, "dmi", "id") else { return [] }
        defer { udev_device_unref(dmi) }
        guard let syspath = udev_device_get_syspath(dmi).map({ String(cString: $0) }) else { return [] }
        return attributes(ofSyspath: syspath)
    }

    /// Every sysfs attribute of the device at `syspath` that udev lists, with its value (for reports).
    package func attributes(ofSyspath syspath: String) -> [(String, String)] {
        guard let device = udev_device_new_from_syspath(handle, syspath) else { return [] }
        defer { udev_device_unref(device) }
        var result: [(String, String)] = []
        var entry = udev_device_get_sysattr_list_entry(device)
        while let current = entry {
            if let name = udev_list_entry_get_name(current).map({ String(cString: $0) }),
                let value = udev_device_get_sysattr_value(device, name)
            {
                result.append((name, String(cString: value)))
            }
            entry = udev_list_entry_get_next(current)
        }
        return result.sorted { $0.0 < $1.0 }
    }
}
