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
import OrientationCore
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// A channel of an ``IIODevice``.
struct IIOChannel {
    let pointer: OpaquePointer
    let device: IIODevice

    /// The channel's id (`accel_x`).
    var id: String { String(cString: iio_channel_get_id(pointer)) }
    /// Whether it is a scan element (can be captured through the buffer).
    var isScanElement: Bool { iio_channel_is_scan_element(pointer) }
    /// Its scan index; negative when it is not a scan element.
    var index: Int { Int(iio_channel_get_index(pointer)) }
    /// Whether libiio will capture it in the next buffer.
    var isEnabled: Bool { iio_channel_is_enabled(pointer) }

    /// Enables or disables capture of the channel in the next buffer.
    func setEnabled(_ enabled: Bool) {
        if enabled { iio_channel_enable(pointer) } else { iio_channel_disable(pointer) }
    }

    /// Whether the channel has the attribute itself (not through libiio's silent fallback to the device).
    func hasAttribute(_ name: String) -> Bool {
        iio_channel_find_attr(pointer, name) != nil
    }

    /// The file in the device's folder that holds a channel attribute (`in_accel_sampling_frequency`), if it has it.
    func attributeFile(_ name: String) -> String? {
        iio_channel_attr_get_filename(pointer, name).map { String(cString: $0) }
    }

    /// Reads a channel attribute (`iio_channel_attr_read`).
    func readAttribute(_ name: String) throws(SensorError) -> String {
        var buffer = [CChar](repeating: 0, count: 1024)
        let count = iio_channel_attr_read(pointer, name, &buffer, buffer.count)
        guard count >= 0 else {
            throw SensorError.call(
                "iio_channel_attr_read(\(id) \(name))",
                device: device.id,
                errno: Errno(Int32(count))
            )
        }
        return IIODevice.text(buffer)
    }

    /// Writes a channel attribute (`iio_channel_attr_write`).
    func writeAttribute(_ name: String, _ value: String) throws(SensorError) {
        let count = iio_channel_attr_write(pointer, name, value)
        guard count >= 0 else {
            throw SensorError.call(
                "iio_channel_attr_write(\(id) \(name)=\(value))",
                device: device.id,
                errno: Errno(Int32(count))
            )
        }
    }
}

extension IIOChannel {
    /// The scan element format libiio parsed from `scan_elements/*_type`.
    var format: ScanElementFormat? {
        guard let format = iio_channel_get_data_format(pointer)?.pointee else { return nil }
        return try? ScanElementFormat(
            isBigEndian: format.is_be,
            isSigned: format.is_signed,
            bits: Int(format.bits),
            storageBits: Int(format.length),
            shift: Int(format.shift),
            repeatCount: max(1, Int(format.repeat))
        )
    }
}
