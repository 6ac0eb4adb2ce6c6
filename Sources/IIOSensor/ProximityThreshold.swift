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

/// Whether a proximity sensor sees something near, from its raw readings and its near level, with a margin around
/// the level so that a reading that hovers at it does not flap.
///
/// Far, a reading must rise above the level plus 10 % to be near; near, it must fall to the level minus 10 % or
/// below to be far again (iio-sensor-proxy's margin). Larger raw values are nearer, as the IIO ABI has them.
public struct ProximityThreshold: Sendable, Hashable {
    /// The raw value at which something counts as near (udev's `PROXIMITY_NEAR_LEVEL` or `in_proximity_nearlevel`).
    public let nearLevel: Double
    /// The margin around the level, as a fraction of it.
    public static let margin = 0.1
    /// The last decision: nil before the first reading.
    public private(set) var isNear: Bool?

    /// A threshold at `nearLevel` with no reading yet.
    public init(nearLevel: Double) {
        self.nearLevel = nearLevel
    }

    /// Takes a reading and returns whether something is near now.
    public mutating func update(raw: Double) -> Bool {
        let near: Bool
        if isNear == true {
            near = raw > nearLevel * (1 - Self.margin)
        } else {
            near = raw > nearLevel * (1 + Self.margin)
        }
        isNear = near
        return near
    }

    /// Forgets the last decision (the sensor was stopped: the next reading decides afresh).
    public mutating func reset() {
        isNear = nil
    }
}
