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

import SensorDevices

/// A sensor of iio-sensor-proxy's API that a bus client claims (`ClaimAccelerometer`, `ClaimLight`,
/// `ClaimProximity`, `ClaimCompass`).
enum ProxySensor: String, Sendable, Hashable, CaseIterable {
    case accelerometer
    case light
    case proximity
    case compass

    /// The light, proximity or compass sensor behind it (a ``ClaimedSensor``); nil for the accelerometer, which the engine reads.
    var claimedKind: ClaimedSensorKind? {
        switch self {
        case .accelerometer: nil
        case .light: .light
        case .proximity: .proximity
        case .compass: .compass
        }
    }

    /// The sensor that a method of the API claims or releases (`ClaimLight`, `ReleaseLight`); nil for another name.
    init?(method: String) {
        let name = method.hasPrefix("Claim") ? method.dropFirst(5) : method.dropFirst(7)
        guard method.hasPrefix("Claim") || method.hasPrefix("Release"),
            let sensor = Self.allCases.first(where: { $0.rawValue == name.lowercased() })
        else { return nil }
        self = sensor
    }

    /// The sensor whose readings `property` carries (`AccelerometerOrientation`, `LightLevel`, `ProximityNear`,
    /// `CompassHeading`, …), whose changes go only to the clients that claim it; nil for the `Has…` properties,
    /// which go to everyone.
    init?(readingProperty property: String) {
        switch property {
        case "AccelerometerOrientation", "AccelerometerTilt": self = .accelerometer
        case "LightLevel", "LightLevelUnit": self = .light
        case "ProximityNear": self = .proximity
        case "CompassHeading": self = .compass
        default: return nil
        }
    }
}
