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

    /// `TabletAngle=`'s default: ChromeOS's threshold of tablet mode.
    public static let defaultTabletAngle = 200
    /// `LaptopAngle=`'s default: ChromeOS's threshold of laptop mode again.
    public static let defaultLaptopAngle = 160

    /// ChromeOS's thresholds: tablet from 200°, laptop again at 160°.
    public init() {
        tabletAngle = Double(Self.defaultTabletAngle)
        laptopAngle = Double(Self.defaultLaptopAngle)
    }

    /// Thresholds in whole degrees, as in the configuration file, checked against their ranges.
    /// - Throws: ``SettingRangeError`` naming the key, its value and the range.
    public init(
        tabletAngleDegrees: Int = Self.defaultTabletAngle,
        laptopAngleDegrees: Int = Self.defaultLaptopAngle
    ) throws(SettingRangeError) {
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
