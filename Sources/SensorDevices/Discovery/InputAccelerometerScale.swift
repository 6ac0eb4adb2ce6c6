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

/// How many counts of an evdev accelerometer's `ABS_X`, `ABS_Y` and `ABS_Z` make one g, and where that came from.
///
/// The axes are those of ORIENTATION.md as they are (`ABS_X` is x, `ABS_Y` y, `ABS_Z` z), as iio-sensor-proxy reads
/// them, and udev's `ACCEL_MOUNT_MATRIX` (hwdb) is applied to them as to an IIO accelerometer's. The kernel says the
/// resolution of an accelerometer's axes in counts per g (`input_absinfo.resolution`); a driver that leaves it 0 is
/// known by its name (lis3lv02d reports milli-g), and any other one is taken as 256 counts per g, iio-sensor-proxy's
/// scale for every input accelerometer.
struct InputAccelerometerScale: Sendable, Hashable {
    /// Counts per g (9.80665 m/s²).
    var countsPerG: Double
    /// Where it came from, for `orientd sensors` and `status`.
    var source: String

    /// Standard gravity, m/s².
    static let standardGravity = 9.80665
    /// iio-sensor-proxy's counts per g for an input accelerometer that says nothing.
    static let defaultCountsPerG = 256.0

    /// The scale of the device named `name` whose axes have `resolution` (nil before the device is opened).
    static func choose(name: String, resolution: Int32?) -> InputAccelerometerScale {
        if let resolution, resolution > 0 {
            return InputAccelerometerScale(countsPerG: Double(resolution), source: "absinfo resolution")
        }
        if name.lowercased().contains("lis3lv02d") {
            return InputAccelerometerScale(countsPerG: 1000, source: "lis3lv02d: milli-g")
        }
        return InputAccelerometerScale(countsPerG: defaultCountsPerG, source: "default: 256 per g")
    }

    /// m/s² per count.
    var perCount: Double { Self.standardGravity / countsPerG }

    /// The calibration of counts to m/s² in the panel frame: the same scale on the three axes, no offset, `matrix`.
    func calibration(matrix: MountMatrix) -> Calibration {
        Calibration(scale: Vector3(x: perCount, y: perCount, z: perCount), matrix: matrix)
    }
}
