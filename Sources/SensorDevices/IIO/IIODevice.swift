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

import CLibIIO
import IniFormat
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// A device of an ``IIOContext``; valid while the context lives (it keeps it alive).
struct IIODevice {
    let pointer: OpaquePointer
    let context: IIOContext

    /// The kernel's id, `iio:deviceN` (or `triggerN`).
    var id: String { String(cString: iio_device_get_id(pointer)) }
    /// The driver's name (`accel_3d`, `cros-ec-accel`…), empty if none.
    var name: String { iio_device_get_name(pointer).map { String(cString: $0) } ?? "" }
    /// The sysfs `label` (`accel-display`, `accel-base`), if any; libiio 0.24 offers it only here.
    var label: String? { iio_device_get_label(pointer).map { String(cString: $0) } }
    /// Whether this is a trigger.
    var isTrigger: Bool { iio_device_is_trigger(pointer) }

    /// The input channel with this id (`accel_x`, `timestamp`, `mount`).
    func channel(_ id: String) -> IIOChannel? {
        iio_device_find_channel(pointer, id, false).map { IIOChannel(pointer: $0, device: self) }
    }

    /// The id of the accelerometer channel of `axis` (`x`, `y`, `z`): `accel_x`, or, on a device whose driver indexes
    /// its accelerometer channels (`in_accel0_x_raw`, which libiio names `accel0_x`), that of the first index whose
    /// x channel exists; nil without an accelerometer channel.
    func accelerometerChannelID(_ axis: String) -> String? {
        for prefix in ["accel"] + (0...IIOChannelName.highestIndex).map({ "accel\($0)" })
        where channel(prefix + "_x") != nil {
            return prefix + "_" + axis
        }
        return nil
    }

    /// The accelerometer channel of `axis` (``accelerometerChannelID(_:)``).
    func accelerometerChannel(_ axis: String) -> IIOChannel? {
        accelerometerChannelID(axis).flatMap { channel($0) }
    }

    /// Every channel.
    var channels: [IIOChannel] {
        (0..<iio_device_get_channels_count(pointer)).compactMap { index in
            iio_device_get_channel(pointer, index).map { IIOChannel(pointer: $0, device: self) }
        }
    }

    /// Whether the device has the attribute (`sampling_frequency`, `scale`, `mount_matrix`).
    func hasAttribute(_ name: String) -> Bool {
        iio_device_find_attr(pointer, name) != nil
    }

    /// Reads a device attribute (`iio_device_attr_read`).
    func readAttribute(_ name: String) throws(SensorError) -> String {
        var buffer = [CChar](repeating: 0, count: 1024)
        let count = iio_device_attr_read(pointer, name, &buffer, buffer.count)
        guard count >= 0 else {
            throw SensorError.call("iio_device_attr_read(\(name))", device: id, errno: Errno(Int32(count)))
        }
        return Self.text(buffer)
    }

    /// Writes a device attribute (`iio_device_attr_write`).
    func writeAttribute(_ name: String, _ value: String) throws(SensorError) {
        let count = iio_device_attr_write(pointer, name, value)
        guard count >= 0 else {
            throw SensorError.call("iio_device_attr_write(\(name)=\(value))", device: id, errno: Errno(Int32(count)))
        }
    }

    /// The device's current trigger, if one is set.
    var trigger: IIODevice? {
        var trigger: OpaquePointer?
        guard iio_device_get_trigger(pointer, &trigger) == 0, let trigger else { return nil }
        return IIODevice(pointer: trigger, context: context)
    }

    /// Sets or clears (nil) the trigger (`iio_device_set_trigger`).
    func setTrigger(_ trigger: IIODevice?) throws(SensorError) {
        let result = iio_device_set_trigger(pointer, trigger?.pointer)
        guard result >= 0 else {
            throw SensorError.call(
                "iio_device_set_trigger(\(trigger?.name ?? "none"))",
                device: id,
                errno: Errno(result)
            )
        }
    }

    /// Text read from an attribute, without the trailing newline, NUL and spaces.
    static func text(_ buffer: [CChar]) -> String {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
    }
}
