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

/// Whether a proximity sensor sees something near, from its raw readings and its near level, with
/// iio-sensor-proxy's margin (`drv-iio-poll-proximity.c`), so that the same readings give the same answers.
///
/// The margin follows the previous reading, not the last decision: when the previous reading was above the level,
/// a reading above 90 % of the level is near; otherwise a reading must rise above 110 % of the level. A steady
/// reading is therefore decided by the level alone (above it: near, from the second reading on; at or below it:
/// far), and the margin only delays a flip by one reading. Larger raw values are nearer, as the IIO ABI has them.
public struct ProximityThreshold: Sendable, Hashable {
    /// The raw value at which something counts as near (udev's `PROXIMITY_NEAR_LEVEL` or `in_proximity_nearlevel`).
    public let nearLevel: Double
    /// The margin around the level, as a fraction of it.
    public static let margin = 0.1
    /// The last decision: nil before the first reading.
    public private(set) var isNear: Bool?
    /// The previous reading: nil before the first (taken as below the level, as iio-sensor-proxy's 0).
    public private(set) var previousRaw: Double?

    /// A threshold at `nearLevel` with no reading yet.
    public init(nearLevel: Double) {
        self.nearLevel = nearLevel
    }

    /// The value a reading must exceed to be near, after the previous reading.
    public var threshold: Double {
        let previousAbove = previousRaw.map { $0 > nearLevel } ?? false
        return nearLevel * (previousAbove ? 1 - Self.margin : 1 + Self.margin)
    }

    /// Takes a reading and returns whether something is near now.
    public mutating func update(raw: Double) -> Bool {
        let near = raw > threshold
        previousRaw = raw
        isNear = near
        return near
    }

    /// Forgets the readings (the sensor was stopped: the next reading decides afresh).
    public mutating func reset() {
        isNear = nil
        previousRaw = nil
    }
}
