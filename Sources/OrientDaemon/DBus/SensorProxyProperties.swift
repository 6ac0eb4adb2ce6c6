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

/// The values of iio-sensor-proxy's properties: the accelerometer's, as orientd computes them from its state, and
/// the light sensor's, the proximity sensor's and the compass's, from their last readings.
struct SensorProxyProperties: Sendable, Hashable {
    /// `HasAccelerometer`.
    var hasAccelerometer: Bool
    /// `AccelerometerOrientation`: `undefined`, `normal`, `bottom-up`, `left-up` or `right-up`.
    var orientation: String
    /// `AccelerometerTilt`: `undefined`, `vertical`, `tilted-up`, `tilted-down`, `face-up` or `face-down`.
    var tilt: String
    /// `HasAmbientLight`.
    var hasAmbientLight = false
    /// `LightLevel`: the last reading, 0 before the first.
    var lightLevel = 0.0
    /// `LightLevelUnit`: `lux`, or `vendor` for a value of the device's own.
    var lightLevelUnit = "lux"
    /// `HasProximity`.
    var hasProximity = false
    /// `ProximityNear`.
    var proximityNear = false
    /// `HasCompass` (on the compass's object).
    var hasCompass = false
    /// `CompassHeading`: degrees from magnetic north, -1 while unknown.
    var compassHeading = -1.0

    /// The properties of `net.hadess.SensorProxy` in the order of the interface, with the names that differ from
    /// `other`.
    func changedNames(from other: SensorProxyProperties) -> [String] {
        var names: [String] = []
        if hasAccelerometer != other.hasAccelerometer { names.append("HasAccelerometer") }
        if orientation != other.orientation { names.append("AccelerometerOrientation") }
        if tilt != other.tilt { names.append("AccelerometerTilt") }
        if hasAmbientLight != other.hasAmbientLight { names.append("HasAmbientLight") }
        if lightLevelUnit != other.lightLevelUnit { names.append("LightLevelUnit") }
        if lightLevel != other.lightLevel { names.append("LightLevel") }
        if hasProximity != other.hasProximity { names.append("HasProximity") }
        if proximityNear != other.proximityNear { names.append("ProximityNear") }
        return names
    }

    /// The properties of `net.hadess.SensorProxy.Compass` that differ from `other`.
    func changedCompassNames(from other: SensorProxyProperties) -> [String] {
        var names: [String] = []
        if hasCompass != other.hasCompass { names.append("HasCompass") }
        if compassHeading != other.compassHeading { names.append("CompassHeading") }
        return names
    }

    /// `AccelerometerOrientation`: the pose whose device orientation asks for the interface orientation
    /// (ORIENTATION.md), so that a lock or constraint is obeyed by desktops that rotate by this property.
    ///
    /// iio-sensor-proxy names poses (`normal` is the panel's natural position, `left-up` is the left edge up),
    /// and GNOME and KDE map them to display rotations themselves: the pose of the interface orientation makes
    /// them apply exactly the rotation orientd's own clients apply. `unknown` (no classification yet) is
    /// `undefined`.
    static func orientation(interface: InterfaceOrientation, natural: NaturalOrientation) -> String {
        interface.deviceOrientation.pose(natural: natural)?.wireName ?? "undefined"
    }

    /// `AccelerometerTilt`: iio-sensor-proxy's name of the tilt.
    static func tilt(_ tilt: DeviceTilt) -> String {
        tilt.wireName
    }
}
