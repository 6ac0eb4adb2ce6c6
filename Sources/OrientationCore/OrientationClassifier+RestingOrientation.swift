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

extension OrientationClassifier {
    /// The device orientation of a device held still at `acceleration`, decided from that one reading: face up or
    /// face down beyond `FaceUpAngle=`, else the nearest of the four poses; `unknown` for a reading with no
    /// direction. For a reading taken once while nobody generates (an input accelerometer's values at discovery),
    /// not for a stream of samples: it has no hysteresis and no dwell.
    public static func restingOrientation(
        of acceleration: Vector3,
        configuration: ClassifierConfiguration = ClassifierConfiguration()
    ) -> DeviceOrientation {
        let norm = acceleration.magnitude
        guard norm.isFinite, norm > 0 else { return .unknown }
        let sine = acceleration.z / norm
        let faceSine = Trigonometry.sine(degrees: configuration.faceAngle)
        if sine >= faceSine { return .faceUp }
        if -sine >= faceSine { return .faceDown }
        return Pose.nearest(x: acceleration.x, y: acceleration.y).deviceOrientation(natural: configuration.natural)
    }
}
