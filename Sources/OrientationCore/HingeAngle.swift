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

/// The hinge angle of a convertible with two accelerometers, one in the lid (the display) and one in the base.
///
/// 0° closed, 90° lid upright, 180° opened flat, 270° tent or stand, 360° folded back into a tablet. Each reading
/// is taken after its own mount matrix; a base accelerometer's matrix puts it in the display's frame as it is
/// when the lid is opened flat, so that at 180° both read the same. The hinge then runs along x, and with
/// α = atan2(y, z) of each reading, θ = (α_display − α_base + 180°) mod 360°. Turning the whole machine about the
/// hinge changes both α alike and θ not at all.
public enum HingeAngle {
    /// θ in degrees, in [0°, 360°), from a display and a base reading in their common frame.
    public static func degrees(display: Vector3, base: Vector3) -> Double {
        let alphaDisplay = Trigonometry.arctangent(y: display.y, x: display.z)
        let alphaBase = Trigonometry.arctangent(y: base.y, x: base.z)
        var angle = (alphaDisplay - alphaBase + 180).truncatingRemainder(dividingBy: 360)
        if angle < 0 { angle += 360 }
        return angle
    }
}

/// The thresholds of tablet mode from the hinge (`[Policy] TabletAngle=`, `LaptopAngle=`).
public struct HingeConfiguration: Sendable, Hashable {
    /// A reliable angle at or above this (degrees) means tablet mode.
    public var tabletAngle: Double
    /// A reliable angle at or below this (degrees) means laptop mode.
    public var laptopAngle: Double

    /// The allowed range of `TabletAngle=`: above flat, up to folded.
    public static let tabletAngleRange = 181...360
    /// The allowed range of `LaptopAngle=`: from closed, below flat.
    public static let laptopAngleRange = 0...179

    /// ChromeOS's thresholds: tablet from 200°, laptop again at 160°.
    public init() {
        tabletAngle = 200
        laptopAngle = 160
    }

    /// Thresholds in whole degrees, as in the configuration file, checked against their ranges.
    /// - Throws: ``SettingRangeError`` naming the key, its value and the range.
    public init(tabletAngleDegrees: Int = 200, laptopAngleDegrees: Int = 160) throws(SettingRangeError) {
        guard Self.tabletAngleRange.contains(tabletAngleDegrees) else {
            throw SettingRangeError(key: "TabletAngle", value: tabletAngleDegrees, range: Self.tabletAngleRange)
        }
        guard Self.laptopAngleRange.contains(laptopAngleDegrees) else {
            throw SettingRangeError(key: "LaptopAngle", value: laptopAngleDegrees, range: Self.laptopAngleRange)
        }
        tabletAngle = Double(tabletAngleDegrees)
        laptopAngle = Double(laptopAngleDegrees)
    }
}
