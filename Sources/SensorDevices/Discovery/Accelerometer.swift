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

import OrientationCore

/// Everything orientd found out about one accelerometer: what it is, where it sits, how to
/// calibrate it and how it can be read.
public struct Accelerometer: Sendable, Hashable {
    /// The kernel's id, `iio:deviceN` (`eventN` for an accelerometer of the input subsystem).
    public var id: String
    /// The driver's name (`accel_3d`, `cros-ec-accel`…).
    public var name: String
    /// The sysfs label, if any (`accel-display`).
    public var label: String?
    /// The sysfs folder, when udev knows the device.
    public var syspath: String?
    /// Display or base.
    public var location: SensorLocation
    /// Where the location came from (`udev ACCEL_LOCATION`, `sysfs label`, `sysfs location`, `default`).
    public var locationSource: String
    /// Scale, offset and mount matrix.
    public var calibration: Calibration
    /// Where the mount matrix came from (`udev ACCEL_MOUNT_MATRIX`, `sysfs mount_matrix`, …, `identity`).
    public var matrixSource: String
    /// Where the scale came from (`in_accel_x_scale`, `in_accel_scale`, `scale`, or `none`).
    public var scaleSource: String
    /// Whether x, y and z can be captured through the buffer.
    public var canBuffer: Bool
    /// The trigger to use with the buffer, if the device has one.
    public var triggerName: String?
    /// The current sampling frequency in Hz, if the device has the attribute.
    public var samplingFrequency: Double?
    /// The sampling frequencies the device offers, if it says.
    public var availableFrequencies: [Double]
    /// Whether the buffer carries a timestamp channel.
    public var hasTimestamp: Bool
    /// What was odd while reading its attributes (a broken matrix skipped, no scale…).
    public var warnings: [String]
    /// Why its mount matrix is a guess, when every matrix found for it was broken (the identity is used then); nil
    /// when a matrix was read or there was none.
    public var brokenMatrix: String? = nil
    /// The evdev node (`/dev/input/event5`) of an accelerometer of the input subsystem, read with libevdev; nil for an
    /// IIO one.
    public var inputNode: String? = nil
    /// For a base accelerometer whose matrix comes from udev: the match line of the entry `orientd calibrate` wrote for
    /// it before it used systemd's frame (``OldBaseEntry``), still in the local hwdb file; nil otherwise.
    public var oldFrameEntry: String? = nil
    /// Whether udev marks it as an accelerometer with iio-sensor-proxy's `IIO_SENSOR_PROXY_TYPE` (``SensorProxyType``):
    /// such a device is preferred to an unmarked one.
    public var markedBySensorProxyType = false

    /// The mode orientd uses for it unless told to poll (an input accelerometer is always read through its events).
    public var preferredMode: CaptureMode { inputNode != nil ? .evdev : canBuffer ? .buffer : .poll }

    /// The rate to ask for: the lowest available frequency at or above `requested`, else the highest available.
    public func chooseFrequency(atLeast requested: Double) -> Double {
        let sorted = availableFrequencies.sorted()
        return sorted.first { $0 >= requested } ?? sorted.last ?? requested
    }
}
