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

import Foundation

/// One value per accelerometer axis.
package struct AxisValues<Value> {
    package var x: Value
    package var y: Value
    package var z: Value

    package init(x: Value, y: Value, z: Value) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The value of `axis`.
    package subscript(axis: Axis) -> Value {
        switch axis {
        case .x: x
        case .y: y
        case .z: z
        }
    }
}

/// An accelerometer axis, as IIO names its channel (`accel_x`).
package enum Axis: String, CaseIterable {
    case x, y, z
}

/// A buffered channel: its scan element type and scan index.
package struct ScanElement: Sendable {
    package var type: ScanElementType
    package var index: Int

    package init(type: ScanElementType, index: Int) {
        self.type = type
        self.index = index
    }
}

/// An emulated IIO accelerometer in one of the shapes real drivers have, rendered as umockdev description text.
///
/// Every sysfs value is written with its trailing newline (libiio 0.24 needs it). Defaults: `accel_3d` (HID) at
/// `iio:device0`, buffered, `le:s16/16>>0` at indices 0, 1, 2 and a timestamp at 3, trigger `accel_3d-dev0`,
/// shared `in_accel_scale`, `sampling_frequency` 10, raw values (0, -1000, 0).
package struct AccelerometerFixture: Sendable {
    /// How samples can be read.
    package enum Capture {
        /// A buffer: `/dev/iio:deviceN` (a PTY), the `dev` attribute, `buffer/` and `scan_elements/`.
        case buffered
        /// Raw attributes only: no device node, no `dev` attribute, no buffer.
        case pollOnly
    }

    /// The trigger device that comes with the accelerometer.
    package enum Trigger {
        /// None (cros-ec with the EC's FIFO).
        case none
        /// `<name>-dev<N>` (HID sensors).
        case deviceNumbered
        /// `<name>-trigger` (st_accel).
        case nameSuffixed
        /// Any other name.
        case named(String)
    }

    /// Where the scale (or offset) lives.
    package enum Calibration {
        case none
        /// `in_accel_x_scale`, `in_accel_y_scale`, `in_accel_z_scale` (st_accel).
        case perAxis(AxisValues<String>)
        /// `in_accel_scale` (HID sensors).
        case shared(String)
        /// `scale`, without a prefix (cros-ec).
        case device(String)
    }

    /// Where a mount matrix can come from, in ORIENTATION.md's precedence order.
    package enum MountMatrixSource: CaseIterable {
        /// udev property `ACCEL_MOUNT_MATRIX` (hwdb).
        case udev
        /// sysfs `mount_matrix` (st_accel).
        case mountMatrix
        /// sysfs `in_accel_mount_matrix` (kxcjk-1013).
        case accelMountMatrix
        /// sysfs `in_mount_matrix` (bmc150).
        case inMountMatrix
    }

    /// Where a location can come from.
    package enum LocationSource: CaseIterable {
        /// udev property `ACCEL_LOCATION` (`display`, `base`).
        case udev
        /// sysfs `label` (`accel-display`, `accel-base`; cros-ec since Linux 6.0).
        case label
        /// sysfs `location` (`lid`, `base`; older cros-ec).
        case location
    }

    package var deviceNumber = 0
    package var name = "accel_3d"
    /// The parent device path, under which the accelerometer and its trigger sit.
    package var parentPath = "/devices/platform/accel-test"
    package var capture = Capture.buffered
    package var axes = AxisValues(
        x: ScanElement(type: ScanElementType("le:s16/16>>0")!, index: 0),
        y: ScanElement(type: ScanElementType("le:s16/16>>0")!, index: 1),
        z: ScanElement(type: ScanElementType("le:s16/16>>0")!, index: 2)
    )
    /// The timestamp channel (`in_timestamp`), or nil for none.
    package var timestamp: ScanElement? = ScanElement(type: ScanElementType("le:s64/64>>0")!, index: 3)
    package var trigger = Trigger.deviceNumbered
    /// The trigger's number (`triggerN`); defaults to the device number so two fixtures never clash.
    package var triggerNumber: Int?
    package var scale = Calibration.shared("0.009806650")
    package var offset = Calibration.none
    /// The sampling frequency attribute's value, or nil for none (mxc4005).
    package var samplingFrequency: String? = "10"
    /// `sampling_frequency` for the device-wide attribute, `in_accel_sampling_frequency` for a typed one.
    package var samplingFrequencyAttribute = "sampling_frequency"
    /// `sampling_frequency_available` (space-separated), or nil for none.
    package var samplingFrequencyAvailable: String?
    /// `in_accel_hysteresis` (HID sensors), or nil for none.
    package var hysteresis: String?
    /// Mount matrices by source, each `"a, b, c; d, e, f; g, h, i"` (or anything, to test rejection).
    package var mountMatrices: [MountMatrixSource: String] = [:]
    /// Locations by source.
    package var locations: [LocationSource: String] = [:]
    package var raw = AxisValues<Int64>(x: 0, y: -1000, z: 0)
    /// The index of the accelerometer channels, for a driver that indexes them (`in_accel0_x_raw`, the scan element
    /// `in_accel0_x`); nil for none. Attributes shared by type (`in_accel_scale`) keep their name.
    package var channelIndex: Int?
    /// Further sysfs attributes, written as given (plus the newline).
    package var extraAttributes: [(String, String)] = []
    /// Further udev properties.
    package var extraProperties: [(String, String)] = []
    /// Bits of each storage word that the value does not cover are filled from this pattern by `encodeScan`.
    package var unusedBits: UInt64 = 0
    /// The byte `encodeScan` puts in alignment padding (the kernel does not clear it).
    package var paddingByte: UInt8 = 0

    /// A fixture with the given scan type on every axis, the axes at scan indices in `order`, and optionally a
    /// timestamp after them.
    package init(scanType: String = "le:s16/16>>0", order: [Axis] = [.x, .y, .z], timestamp: Bool = true) {
        let type = ScanElementType(scanType)!
        let index = { (axis: Axis) in order.firstIndex(of: axis)! }
        axes = AxisValues(
            x: ScanElement(type: type, index: index(.x)),
            y: ScanElement(type: type, index: index(.y)),
            z: ScanElement(type: type, index: index(.z))
        )
        self.timestamp = timestamp ? ScanElement(type: ScanElementType("le:s64/64>>0")!, index: 3) : nil
    }

    /// `iio:deviceN`.
    package var deviceName: String { "iio:device\(deviceNumber)" }
    /// `/devices/…/iio:deviceN`, as in the description's `P:` line and udev's DEVPATH.
    package var devicePath: String { "\(parentPath)/\(deviceName)" }
    /// `/sys/devices/…/iio:deviceN`, for `Testbed` calls.
    package var syspath: String { "/sys" + devicePath }
    /// `/dev/iio:deviceN` (buffered devices only).
    package var deviceNode: String { "/dev/\(deviceName)" }
    /// The trigger's name, or nil for none.
    package var triggerName: String? {
        switch trigger {
        case .none: nil
        case .deviceNumbered: "\(name)-dev\(deviceNumber)"
        case .nameSuffixed: "\(name)-trigger"
        case .named(let triggerName): triggerName
        }
    }
    /// `/sys/devices/…/triggerN`.
    package var triggerSyspath: String { "/sys\(parentPath)/trigger\(triggerNumber ?? deviceNumber)" }

    /// The umockdev description: the accelerometer, then its trigger device if it has one.
    package var description: String {
        triggerDescription.map { deviceDescription + "\n" + $0 } ?? deviceDescription
    }

    /// The trigger device's description alone, or nil without a trigger.
    package var triggerDescription: String? {
        triggerName.map { "P: \(triggerSyspath.dropFirst(4))\nE: SUBSYSTEM=iio\nA: name=\(Self.escape($0 + "\n"))\n" }
    }

    /// The accelerometer's description alone (to add it again after removing it, its trigger still there).
    package var deviceDescription: String {
        var lines = ["P: \(devicePath)"]
        var attributes: [(String, String)] = [("name", name)]
        if capture == .buffered {
            lines.append("N: \(deviceName)")
            lines.append("E: DEVNAME=\(deviceNode)")
            attributes.append(("dev", "241:\(deviceNumber)"))
        }
        lines += ["E: DEVTYPE=iio_device", "E: SUBSYSTEM=iio"]
        if let matrix = mountMatrices[.udev] { lines.append("E: ACCEL_MOUNT_MATRIX=\(matrix)") }
        if let location = locations[.udev] { lines.append("E: ACCEL_LOCATION=\(location)") }
        lines += extraProperties.map { "E: \($0.0)=\($0.1)" }

        for axis in Axis.allCases { attributes.append((channel(axis) + "_raw", "\(raw[axis])")) }
        attributes += calibrationAttributes(scale, suffix: "scale")
        attributes += calibrationAttributes(offset, suffix: "offset")
        if let samplingFrequency { attributes.append((samplingFrequencyAttribute, samplingFrequency)) }
        if let available = samplingFrequencyAvailable {
            attributes.append((samplingFrequencyAttribute + "_available", available))
        }
        if let hysteresis { attributes.append(("in_accel_hysteresis", hysteresis)) }
        let matrixFiles: [(MountMatrixSource, String)] = [
            (.mountMatrix, "mount_matrix"), (.accelMountMatrix, "in_accel_mount_matrix"),
            (.inMountMatrix, "in_mount_matrix"),
        ]
        for (source, file) in matrixFiles {
            if let matrix = mountMatrices[source] { attributes.append((file, matrix)) }
        }
        if let label = locations[.label] { attributes.append(("label", label)) }
        if let location = locations[.location] { attributes.append(("location", location)) }
        if capture == .buffered { attributes += bufferAttributes }
        attributes += extraAttributes
        lines += attributes.map { "A: \($0.0)=\(Self.escape($0.1 + "\n"))" }

        return lines.joined(separator: "\n") + "\n"
    }

    private var bufferAttributes: [(String, String)] {
        var attributes = [("buffer/enable", "0"), ("buffer/length", "16"), ("buffer/watermark", "1")]
        if trigger.exists { attributes.append(("trigger/current_trigger", "")) }
        var channels = Axis.allCases.map { (channel($0), axes[$0]) }
        if let timestamp { channels.append(("in_timestamp", timestamp)) }
        for (channel, element) in channels {
            attributes += [
                ("scan_elements/\(channel)_en", "0"),
                ("scan_elements/\(channel)_index", "\(element.index)"),
                ("scan_elements/\(channel)_type", element.type.description),
            ]
        }
        return attributes
    }

    /// The name of the channel of `axis`, as its attributes and scan element begin: `in_accel_x`, `in_accel0_x`.
    private func channel(_ axis: Axis) -> String {
        "in_accel\(channelIndex.map { String($0) } ?? "")_\(axis)"
    }

    private func calibrationAttributes(_ calibration: Calibration, suffix: String) -> [(String, String)] {
        switch calibration {
        case .none: []
        case .perAxis(let values): Axis.allCases.map { (channel($0) + "_\(suffix)", values[$0]) }
        case .shared(let value): [("in_accel_\(suffix)", value)]
        case .device(let value): [(suffix, value)]
        }
    }

    /// umockdev's `A:` escaping: backslash and newline.
    private static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}

extension AccelerometerFixture.Trigger {
    fileprivate var exists: Bool {
        if case .none = self { return false }
        return true
    }
}

extension AxisValues: Sendable where Value: Sendable {}

extension AxisValues: Equatable where Value: Equatable {}

extension AccelerometerFixture {
    /// A convertible's two accelerometers: the display's (`iio:device0`) and the base's (`iio:device1`, lying flat),
    /// each with its udev `ACCEL_LOCATION`.
    package static func convertiblePair() -> (display: AccelerometerFixture, base: AccelerometerFixture) {
        var display = AccelerometerFixture()
        display.locations = [.udev: "display"]
        display.parentPath = "/devices/platform/accel-lid"
        var base = AccelerometerFixture()
        base.deviceNumber = 1
        base.parentPath = "/devices/platform/accel-base"
        base.locations = [.udev: "base"]
        base.raw = AxisValues(x: 0, y: 0, z: -1000)
        return (display, base)
    }
}
