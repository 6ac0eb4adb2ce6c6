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

/// The tunable settings of ``OrientationClassifier`` (CONFIG.md `[Classifier]`, `[Policy] Natural=`).
public struct ClassifierConfiguration: Sendable, Hashable {
    /// The time constant of the low-pass filter on each axis, in seconds (`FilterMs=`).
    public var filterTime: Double
    /// How long a new pose must be the nearest one, in seconds of still time, before it is taken (`DwellMs=`).
    public var dwellTime: Double
    /// The tilt above which the device counts as lying face up or face down, in degrees (`FaceUpAngle=`).
    public var faceAngle: Double
    /// The panel's natural orientation, which names the poses.
    public var natural: NaturalOrientation

    /// The allowed range of `FilterMs=`.
    public static let filterMillisecondsRange = 10...1000
    /// The allowed range of `DwellMs=`.
    public static let dwellMillisecondsRange = 0...2000
    /// The allowed range of `FaceUpAngle=`.
    public static let faceAngleRange = 45...89

    /// The defaults of CONFIG.md: 100 ms filter, 150 ms dwell, 70° face angle, landscape-native.
    public init(natural: NaturalOrientation = .landscape) {
        filterTime = 0.100
        dwellTime = 0.150
        faceAngle = 70
        self.natural = natural
    }

    /// Settings in the units of the configuration file, checked against their ranges.
    /// - Throws: ``ClassifierConfigurationError`` naming the setting, its value and the range.
    public init(
        filterMilliseconds: Int = 100,
        dwellMilliseconds: Int = 150,
        faceAngleDegrees: Int = 70,
        natural: NaturalOrientation = .landscape
    ) throws(ClassifierConfigurationError) {
        try Self.check("FilterMs", filterMilliseconds, Self.filterMillisecondsRange)
        try Self.check("DwellMs", dwellMilliseconds, Self.dwellMillisecondsRange)
        try Self.check("FaceUpAngle", faceAngleDegrees, Self.faceAngleRange)
        self.init(natural: natural)
        filterTime = Double(filterMilliseconds) / 1000
        dwellTime = Double(dwellMilliseconds) / 1000
        faceAngle = Double(faceAngleDegrees)
    }

    private static func check(
        _ key: String,
        _ value: Int,
        _ range: ClosedRange<Int>
    ) throws(ClassifierConfigurationError) {
        guard range.contains(value) else { throw ClassifierConfigurationError(key: key, value: value, range: range) }
    }
}

/// A classifier setting outside its allowed range.
public typealias ClassifierConfigurationError = SettingRangeError
