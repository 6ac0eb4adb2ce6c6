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
