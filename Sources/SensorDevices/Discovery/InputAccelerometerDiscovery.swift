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

public import OrientationCore
import UdevSupport

/// Finds the accelerometers of the input subsystem (lis3lv02d and the other evdev accelerometers of older laptops) as
/// iio-sensor-proxy does: an `eventN` node of subsystem `input` with a device node and udev's
/// `ID_INPUT_ACCELEROMETER=1`, calibrated by udev's `ACCEL_MOUNT_MATRIX` (hwdb). Nothing is opened: the device's
/// resolution, when it has one, refines the scale once the sensor opens it. A game controller's motion sensor
/// (udev's `ID_INPUT_JOYSTICK`, or a USB or Bluetooth device) and a base accelerometer (`ACCEL_LOCATION=base`) are
/// never used for rotation.
public struct InputAccelerometerDiscovery: Sendable {
    /// The input accelerometers found, in node order.
    public var accelerometers: [Accelerometer]
    /// The ones not used for rotation, with the reason.
    public var skipped: [AccelerometerDiscovery.Skipped]
    /// The one to use when there is no IIO display accelerometer, if any.
    public var chosen: Accelerometer?
    /// Why that one (or why none).
    public var reason: String

    /// Looks at the input devices udev lists now; none without udev, or when `uri` names a context other than the
    /// local machine's.
    /// - Parameters:
    ///   - uri: the configured libiio URI: a remote context has no input devices here.
    ///   - device: `Device=`: an input accelerometer is used only when it names it (`event5`, its node, sysfs path or
    ///     name).
    ///   - mountMatrix: a configured matrix that overrides udev's.
    public static func discover(
        uri: String? = nil,
        device: String? = nil,
        mountMatrix: MountMatrix? = nil
    ) -> InputAccelerometerDiscovery {
        if let uri, !uri.isEmpty, uri != "local:" {
            return InputAccelerometerDiscovery(
                accelerometers: [],
                skipped: [],
                chosen: nil,
                reason: "the IIO context is not the local machine's"
            )
        }
        guard let udev = try? Udev() else {
            return InputAccelerometerDiscovery(accelerometers: [], skipped: [], chosen: nil, reason: "udev unavailable")
        }
        let records = udev.devices(subsystem: "input", parentAttributes: [nameAttribute])
        return discover(records, device: device, mountMatrix: mountMatrix)
    }

    /// The choice among udev's records (any order).
    static func discover(
        _ records: [UdevDevice],
        device override: String?,
        mountMatrix: MountMatrix?
    ) -> InputAccelerometerDiscovery {
        var found: [Accelerometer] = []
        var skipped: [AccelerometerDiscovery.Skipped] = []
        let sorted = records.sorted { nodeOrder($0.sysname, $1.sysname) }
        for record in sorted {
            guard let accelerometer = describe(record, mountMatrix: mountMatrix) else { continue }
            if let reason = unusable(record) {
                skipped.append(.init(id: accelerometer.id, name: accelerometer.name, reason: reason))
            } else {
                found.append(accelerometer)
            }
        }
        var result = InputAccelerometerDiscovery(accelerometers: found, skipped: skipped, chosen: nil, reason: "")
        if let override, !override.isEmpty {
            let wanted = override.hasSuffix("/") ? String(override.dropLast()) : override
            if let match = found.first(where: {
                $0.id == wanted || $0.inputNode == wanted || $0.syspath == wanted || $0.name == wanted
            }) {
                result.chosen = match
                result.reason = "chosen by configuration (Device=\(override))"
            } else {
                result.reason = "the configured device '\(override)' is not an input accelerometer here"
            }
        } else if let display = found.first(where: { $0.location == .display }) {
            result.chosen = display
            result.reason = "an accelerometer of the input subsystem (udev ID_INPUT_ACCELEROMETER)"
        } else if found.isEmpty {
            result.reason = "no input accelerometer found"
        } else {
            result.reason = "only base input accelerometers found; a base sensor never drives rotation"
        }
        return result
    }

    /// The input device's name, read from the evdev node's parent.
    static let nameAttribute = "name"

    /// Orders evdev names by number: `event2` before `event10`.
    static func nodeOrder(_ first: String, _ second: String) -> Bool {
        first.count != second.count ? first.count < second.count : first < second
    }

    /// The accelerometer of a udev record; nil unless it is an evdev node marked `ID_INPUT_ACCELEROMETER=1` (or
    /// `IIO_SENSOR_PROXY_TYPE=input-accel`, as iio-sensor-proxy's rules and local ones mark it).
    static func describe(_ record: UdevDevice, mountMatrix configured: MountMatrix?) -> Accelerometer? {
        guard record.sysname.hasPrefix("event"), let node = record.devnode,
            record.properties["ID_INPUT_ACCELEROMETER"] == "1"
                || SensorProxyType.types(in: record.properties).contains(.inputAccel)
        else { return nil }
        let name = record.parentAttributes[nameAttribute] ?? record.sysname
        var warnings: [String] = []
        var matrix = MountMatrix.identity
        var matrixSource = "identity"
        var broken: String?
        if let configured {
            matrix = configured
            matrixSource = "configuration"
        } else if let text = record.properties["ACCEL_MOUNT_MATRIX"] {
            do {
                matrix = try MountMatrix(parsing: text)
                matrixSource = "udev ACCEL_MOUNT_MATRIX"
            } catch {
                warnings.append("udev ACCEL_MOUNT_MATRIX '\(text)': \(error); the identity is used")
                broken = "udev ACCEL_MOUNT_MATRIX '\(text)': \(error)"
            }
        }
        let location: SensorLocation = record.properties["ACCEL_LOCATION"] == "base" ? .base : .display
        let scale = InputAccelerometerScale.choose(name: name, resolution: nil)
        return Accelerometer(
            id: record.sysname,
            name: name,
            label: nil,
            syspath: record.syspath,
            location: location,
            locationSource: location == .base ? "udev ACCEL_LOCATION" : "default",
            calibration: scale.calibration(matrix: matrix),
            matrixSource: matrixSource,
            scaleSource: scale.source,
            canBuffer: false,
            triggerName: nil,
            samplingFrequency: nil,
            availableFrequencies: [],
            hasTimestamp: false,
            warnings: warnings,
            brokenMatrix: broken,
            inputNode: node
        )
    }

    /// Why an input accelerometer is never used, or nil: a game controller's motion sensor.
    static func unusable(_ record: UdevDevice) -> String? {
        if record.properties["ID_INPUT_JOYSTICK"] == "1" {
            return "part of a game controller (udev ID_INPUT_JOYSTICK)"
        }
        if let bus = record.properties["ID_BUS"], bus == "usb" || bus == "bluetooth" {
            return "on \(bus): a game controller's or other external device's motion sensor, not the display's"
        }
        return nil
    }
}
