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

/// An emulated IIO device of one of the sensors iio-sensor-proxy serves besides the accelerometer (ambient light,
/// proximity, compass), modelled on a real driver: its sysfs attributes and udev properties.
package struct PolledSensorFixture: Sendable {
    /// The driver's device name (`name` attribute).
    package var name: String
    /// `iio:deviceN`.
    package var deviceNumber: Int
    /// The parent device, under `/devices`.
    package var parentPath: String
    /// The sysfs attributes, in order.
    package var attributes: [(String, String)]
    /// The udev properties besides the subsystem's.
    package var properties: [(String, String)] = []
    /// Whether the device has a node, `/dev/iio:deviceN` (an emulated stream: what the test writes, it reads).
    package var hasNode = false
    /// The name of the device's own trigger, added beside it as `triggerN`; nil for none.
    package var trigger: String?

    package init(name: String, deviceNumber: Int, parentPath: String, attributes: [(String, String)]) {
        self.name = name
        self.deviceNumber = deviceNumber
        self.parentPath = parentPath
        self.attributes = attributes
    }

    /// `/sys/devices/…/iio:deviceN`.
    package var syspath: String { "/sys\(parentPath)/iio:device\(deviceNumber)" }

    /// `/dev/iio:deviceN`.
    package var deviceNode: String { "/dev/iio:device\(deviceNumber)" }

    /// The umockdev description of the device, then of its trigger when it has one.
    package var description: String {
        var lines = ["P: \(parentPath)/iio:device\(deviceNumber)"]
        var attributes = [("name", name)]
        if hasNode {
            lines += ["N: iio:device\(deviceNumber)", "E: DEVNAME=\(deviceNode)"]
            attributes.append(("dev", "241:\(deviceNumber)"))
        }
        lines += ["E: DEVTYPE=iio_device", "E: SUBSYSTEM=iio"]
        lines += properties.map { "E: \($0.0)=\($0.1)" }
        lines += (attributes + self.attributes).map { "A: \($0.0)=\(Self.escape($0.1 + "\n"))" }
        if let trigger {
            lines += [
                "", "P: \(parentPath)/trigger\(deviceNumber)", "E: SUBSYSTEM=iio",
                "A: name=\(Self.escape(trigger + "\n"))",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// acpi-als (the ACPI0008 ambient light sensor of many laptops, ASUS Zenbooks among them): `in_illuminance_raw`
    /// and `_input` in lux, no scale. With `buffer`, the kernel's triggered buffer too: the illuminance as a signed
    /// 32-bit scan element and a timestamp, and the device's own trigger `acpi-als-dev<N>` (with `trigger` false,
    /// the buffer without its trigger, which cannot be read).
    package static func acpiALS(
        illuminance: Int = 0,
        buffer: Bool = true,
        trigger: Bool = true,
        deviceNumber: Int = 0
    ) -> PolledSensorFixture {
        var fixture = PolledSensorFixture(
            name: "acpi-als",
            deviceNumber: deviceNumber,
            parentPath: "/devices/LNXSYSTM:00/LNXSYBUS:00/ACPI0008:00",
            attributes: [("in_illuminance_raw", "\(illuminance)"), ("in_illuminance_input", "\(illuminance)")]
        )
        guard buffer else { return fixture }
        fixture.hasNode = true
        fixture.attributes += [
            ("buffer/enable", "0"), ("buffer/length", "2"), ("buffer/watermark", "1"),
            ("trigger/current_trigger", ""), ("current_timestamp_clock", "realtime"),
            ("scan_elements/in_illuminance_en", "0"), ("scan_elements/in_illuminance_index", "0"),
            ("scan_elements/in_illuminance_type", "le:s32/32>>0"), ("scan_elements/in_timestamp_en", "0"),
            ("scan_elements/in_timestamp_index", "1"), ("scan_elements/in_timestamp_type", "le:s64/64>>0"),
        ]
        if trigger { fixture.trigger = "acpi-als-dev\(deviceNumber)" }
        return fixture
    }

    /// One scan of ``acpiALS(illuminance:buffer:trigger:deviceNumber:)`` with only the illuminance enabled: its
    /// value, signed 32 bits, little-endian.
    package static func acpiALSScan(_ illuminance: Int32) -> [UInt8] {
        withUnsafeBytes(of: illuminance.littleEndian) { Array($0) }
    }

    /// hid-sensor-als (the HID sensor hub's ambient light sensor of most Intel and AMD convertibles): a raw
    /// illuminance with the hub's unit exponent as its scale (here 0.1 lux per count) and an offset of 0.
    package static func hidSensorALS(raw: Int = 0, deviceNumber: Int = 4) -> PolledSensorFixture {
        PolledSensorFixture(
            name: "als",
            deviceNumber: deviceNumber,
            parentPath:
                "/devices/pci0000:00/0000:00:12.0/{33AECD58-B679-4E54-9BD9-A04D34F0C226}/HID-SENSOR-200041.2.auto",
            attributes: [
                ("in_illuminance_raw", "\(raw)"), ("in_illuminance_scale", "0.100000"), ("in_illuminance_offset", "0"),
                ("in_intensity_both_raw", "\(raw)"), ("in_illuminance_hysteresis", "0.000000"),
                ("in_illuminance_sampling_frequency", "10.000000"),
            ]
        )
    }

    /// A polled light sensor that gives lux itself (an I2C sensor such as the TSL2583): `in_illuminance0_input`
    /// and its integration time in seconds.
    package static func luxSensor(input: String = "0", deviceNumber: Int = 5) -> PolledSensorFixture {
        PolledSensorFixture(
            name: "tsl2583",
            deviceNumber: deviceNumber,
            parentPath: "/devices/platform/i2c-lux/i2c-3/3-0029",
            attributes: [
                ("in_illuminance0_input", input), ("in_illuminance0_integration_time", "0.200"),
                ("in_illuminance0_calibscale", "1"),
            ]
        )
    }

    /// A light sensor that gives only a raw intensity (`in_intensity_clear_raw`): a vendor value.
    package static func intensitySensor(raw: Int = 0, deviceNumber: Int = 6) -> PolledSensorFixture {
        PolledSensorFixture(
            name: "tcs3472",
            deviceNumber: deviceNumber,
            parentPath: "/devices/platform/i2c-color/i2c-2/2-0029",
            attributes: [("in_intensity_clear_raw", "\(raw)"), ("in_intensity_red_raw", "0")]
        )
    }

    /// A proximity sensor (an I2C light and proximity sensor such as the VCNL4000): `in_proximity_raw`, larger when
    /// nearer, with its near level as the driver's `in_proximity_nearlevel` or, when `udevNearLevel` is given, as
    /// the `PROXIMITY_NEAR_LEVEL` property hwdb sets.
    package static func proximitySensor(
        raw: Int = 0,
        nearLevel: Int? = nil,
        udevNearLevel: Int? = nil,
        deviceNumber: Int = 7
    ) -> PolledSensorFixture {
        var fixture = PolledSensorFixture(
            name: "vcnl4000",
            deviceNumber: deviceNumber,
            parentPath: "/devices/platform/i2c-prox/i2c-1/1-0013",
            attributes: [("in_proximity_raw", "\(raw)"), ("in_proximity_scale", "1")]
        )
        if let nearLevel { fixture.attributes.append(("in_proximity_nearlevel", "\(nearLevel)")) }
        if let udevNearLevel { fixture.properties.append(("PROXIMITY_NEAR_LEVEL", "\(udevNearLevel)")) }
        return fixture
    }

    /// hid-sensor-magn-3d (the HID sensor hub's magnetometer): the three axes and the tilt-compensated heading from
    /// magnetic north, with the hub's unit exponent as its scale (here 0.1 degree per count).
    package static func hidSensorMagn3D(heading: Int = 0, deviceNumber: Int = 8) -> PolledSensorFixture {
        PolledSensorFixture(
            name: "magn_3d",
            deviceNumber: deviceNumber,
            parentPath:
                "/devices/pci0000:00/0000:00:12.0/{33AECD58-B679-4E54-9BD9-A04D34F0C226}/HID-SENSOR-200083.3.auto",
            attributes: [
                ("in_magn_x_raw", "120"), ("in_magn_y_raw", "-40"), ("in_magn_z_raw", "300"),
                ("in_magn_scale", "0.001000"),
                ("in_magn_offset", "0"), ("in_rot_from_north_magnetic_tilt_comp_raw", "\(heading)"),
                ("in_rot_from_north_magnetic_tilt_comp_scale", "0.100000"),
                ("in_rot_from_north_magnetic_tilt_comp_offset", "0"),
            ]
        )
    }

    private static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}
