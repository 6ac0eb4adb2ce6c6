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

/// The sensors of iio-sensor-proxy besides the accelerometer, read by polling one sysfs attribute of an IIO device.
public enum ClaimedSensorKind: String, Sendable, Hashable, CaseIterable {
    /// An ambient light sensor: `in_illuminance_input`, `in_illuminance_raw` or `in_intensity_*_raw`.
    case light
    /// A proximity sensor: `in_proximity_raw` with a near level.
    case proximity
    /// A tilt-compensated compass: `in_rot_from_north_magnetic_tilt_comp_raw` (hid-sensor-magn-3d).
    case compass

    /// How often it is read while claimed when the device says nothing of its own, in seconds: iio-sensor-proxy's
    /// pace (0.8 s for light, 0.7 s for proximity and the compass).
    public var defaultInterval: Double {
        switch self {
        case .light: 0.8
        case .proximity, .compass: 0.7
        }
    }

    /// What iio-sensor-proxy's `IIO_SENSOR_PROXY_TYPE` calls a device of this kind.
    public var sensorProxyMeasure: SensorProxyType.Measure {
        switch self {
        case .light: .light
        case .proximity: .proximity
        case .compass: .compass
        }
    }
}
