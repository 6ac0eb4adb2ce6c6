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

/// The values of iio-sensor-proxy's accelerometer properties, as orientd computes them from its state.
struct SensorProxyProperties: Sendable, Hashable {
    /// `HasAccelerometer`.
    var hasAccelerometer: Bool
    /// `AccelerometerOrientation`: `undefined`, `normal`, `bottom-up`, `left-up` or `right-up`.
    var orientation: String
    /// `AccelerometerTilt`: `undefined`, `vertical`, `tilted-up`, `tilted-down`, `face-up` or `face-down`.
    var tilt: String

    /// The properties in the order of the interface, with the names that differ from `other`.
    func changedNames(from other: SensorProxyProperties) -> [String] {
        var names: [String] = []
        if hasAccelerometer != other.hasAccelerometer { names.append("HasAccelerometer") }
        if orientation != other.orientation { names.append("AccelerometerOrientation") }
        if tilt != other.tilt { names.append("AccelerometerTilt") }
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
