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
import SensorDevices

/// Decides the sensor's pace from the classifier's own measures: idle once the device has been still, with its
/// orientation known, for ``settleTime``; full at the first sample that moves.
///
/// A sample moves when the classifier's motion weight (``OrientationClassifier/stillness``: 1 still, 0 shaken)
/// drops below ``stillWeight``, or when its direction is more than ``stillAngle`` away from the filtered direction
/// the classifier held before it (a turn keeps |a| at g, so only its direction shows it). O(1), no allocation.
struct PaceTracker {
    /// The motion weight at or above which the device counts as still.
    static let stillWeight = 0.9
    /// The cosine of the largest angle (5°) between a still sample and the filtered direction: hand tremor and
    /// sensor noise are a degree or less, a hand's turn moves tens of degrees in the half second between two
    /// idle samples.
    static let stillCosine = 0.996_194_698
    /// How long the device must stay still, at the full rate, before the pace drops.
    static let settleTime = 1.0

    /// Since when the device has been still (sample time); nil while it moves.
    private var stillSince: Double?

    /// The pace after `sample`; `before` is the classifier's filtered acceleration before it took the sample,
    /// `classifier` the classifier after.
    mutating func pace(after sample: Sample, before: Vector3, classifier: OrientationClassifier) -> SensorPace {
        let a = sample.acceleration
        let dot = a.x * before.x + a.y * before.y + a.z * before.z
        let lengths = (a.magnitude * before.magnitude)
        let still =
            classifier.stillness >= Self.stillWeight && lengths > 0 && dot >= Self.stillCosine * lengths
            && classifier.deviceOrientation != .unknown
        guard still else {
            stillSince = nil
            return .full
        }
        let since = stillSince ?? sample.time
        stillSince = since
        return sample.time - since >= Self.settleTime ? .idle : .full
    }

    /// Forgets the stillness (the sensor stopped or the classifier started afresh).
    mutating func reset() {
        stillSince = nil
    }
}
