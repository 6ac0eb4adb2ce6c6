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

/// The display's motion as the engine follows it, one sample at a time: the classifier (the device orientation), the
/// tilt (iio-sensor-proxy's `AccelerometerTilt`, while followed) and the pace (`IdleRate=`). A value that owns its
/// state: a sample in, what changed out. O(1), no allocation.
struct DeviceMotion {
    /// What one sample changed.
    struct Change {
        /// The device orientation changed (``device``).
        var orientation: Bool
        /// The tilt changed (``tilt``); never while it is not followed.
        var tilt: Bool
        /// The classifier's filtered acceleration before the sample, for ``pace(after:before:)``.
        var before: Vector3
    }

    private var classifier: OrientationClassifier
    private var tiltTracker = TiltTracker()
    private var paceTracker = PaceTracker()
    /// Whether the tilt is followed; only the D-Bus service reports it (`[DBus] Compat=yes`).
    let tracksTilt: Bool

    init(configuration: ClassifierConfiguration, tracksTilt: Bool) {
        self.tracksTilt = tracksTilt
        classifier = OrientationClassifier(configuration: configuration)
    }

    /// The device orientation the classifier holds.
    var device: DeviceOrientation { classifier.deviceOrientation }
    /// The tilt; undefined unless ``tracksTilt``.
    var tilt: DeviceTilt { tiltTracker.tilt }

    /// Takes one sample of the display accelerometer through the classifier, and the tilt when it is followed.
    mutating func classify(_ sample: Sample) -> Change {
        let before = classifier.filteredAcceleration
        let orientation = classifier.update(sample)
        let tilt =
            tracksTilt
            && tiltTracker.update(acceleration: classifier.filteredAcceleration, device: classifier.deviceOrientation)
        return Change(orientation: orientation, tilt: tilt, before: before)
    }

    /// The pace after `sample`, which ``classify(_:)`` took (`before`: what it returned): slow while still, with a known
    /// orientation, full at the first sample that moves.
    mutating func pace(after sample: Sample, before: Vector3) -> SensorPace {
        paceTracker.pace(after: sample, before: before, classifier: classifier)
    }

    /// The sensor stopped capturing: the orientation is unknown until it returns, the tilt undefined, the stillness
    /// forgotten.
    mutating func restart() {
        classifier = OrientationClassifier(configuration: classifier.configuration)
        _ = tiltTracker.reset()
        paceTracker.reset()
    }

    /// A reloaded classifier configuration: the classifier starts afresh with it (the tilt is kept).
    mutating func reconfigure(_ new: ClassifierConfiguration) {
        guard new != classifier.configuration else { return }
        classifier = OrientationClassifier(configuration: new)
        paceTracker.reset()
    }
}
