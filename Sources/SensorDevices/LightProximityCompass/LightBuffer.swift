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

/// How the buffer of an `acpi-als` light sensor is read (iio-sensor-proxy's buffered light driver): the kernel
/// pushes a scan of the illuminance through the device node each time the firmware reports a change, on the device's
/// own trigger, `acpi-als-dev<N>`.
///
/// Found from the device's attributes alone (``find(deviceName:sysname:devnode:exists:attribute:triggers:)``), so
/// that the choice is tested without a device.
public struct LightBuffer: Sendable, Hashable {
    /// The scan element enabled, `in_illuminance`.
    public let element: String
    /// How its value is stored in a scan (`scan_elements/in_illuminance_type`).
    public let format: ScanElementFormat
    /// The trigger set as the device's `trigger/current_trigger`.
    public let trigger: String
    /// The device node scans are read from, `/dev/iio:deviceN`.
    public let node: String
    /// The scale applied to a scan's raw value (the element's `_scale`, 1 without one: `acpi-als` gives lux).
    public let scale: Double
    /// The offset added to a scan's raw value before the scale (the element's `_offset`, else 0).
    public let offset: Double

    /// The IIO drivers whose light is read through their buffer.
    public static let drivers: Set<String> = ["acpi-als"]

    /// The buffer of a light sensor, or nil when it has none that can be read: another driver, no device node, no
    /// illuminance scan element (or a type that does not parse), or no trigger of its own.
    /// - Parameters:
    ///   - deviceName: the device's `name` attribute.
    ///   - sysname: `iio:deviceN`.
    ///   - devnode: the device node udev gives, nil without one.
    ///   - exists: whether the device has a sysfs attribute.
    ///   - attribute: the text of one of the device's sysfs attributes, nil when it has no such attribute.
    ///   - triggers: the names of the IIO triggers present.
    public static func find(
        deviceName: String,
        sysname: String,
        devnode: String?,
        exists: (String) -> Bool,
        attribute: (String) -> String?,
        triggers: Set<String>
    ) -> LightBuffer? {
        guard drivers.contains(deviceName), let devnode, sysname.hasPrefix("iio:device") else { return nil }
        let trigger = "\(deviceName)-dev\(sysname.dropFirst("iio:device".count))"
        guard triggers.contains(trigger), exists("trigger/current_trigger"), exists("buffer/enable") else { return nil }
        for element in ["in_illuminance", "in_illuminance0"] where exists("scan_elements/\(element)_en") {
            guard let text = attribute("scan_elements/\(element)_type"),
                let format = try? ScanElementFormat(parsing: text.split(separator: "\n").first ?? "")
            else { return nil }
            return LightBuffer(
                element: element,
                format: format,
                trigger: trigger,
                node: devnode,
                scale: attribute("\(element)_scale").flatMap(ClaimedSensorChannel.number) ?? 1,
                offset: attribute("\(element)_offset").flatMap(ClaimedSensorChannel.number) ?? 0
            )
        }
        return nil
    }

    /// The value of a scan's raw reading: `(raw + offset) × scale`.
    public func value(ofRaw raw: Int64) -> Double { (Double(raw) + offset) * scale }

    /// The bytes of one scan with only this element enabled: its storage, repeated, padded as the kernel pads a
    /// scan (`iio_compute_scan_bytes`).
    public var scanSize: Int {
        ScanLayout.kernelPlacement(ofLengths: [format.storageBytes * format.repeatCount]).size
    }
}
