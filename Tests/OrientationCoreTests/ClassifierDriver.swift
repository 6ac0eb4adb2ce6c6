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

import Foundation
import OrientationCore
import OrientdTestSupport

/// Directions of gravity in the panel frame of ORIENTATION.md (unit vectors).
enum Gravity {
    /// Upright (z = 0), the device turned clockwise by `degrees` from its natural position:
    /// 0 normal (y = −1), 90 left-up (x = +1), 180 bottom-up (y = +1), 270 right-up (x = −1).
    static func upright(turnedClockwise degrees: Double) -> Vector3 {
        let radians = degrees * .pi / 180
        return Vector3(x: sin(radians), y: -cos(radians), z: 0)
    }

    /// `direction` (upright) tilted back by `degrees` toward lying face up.
    static func tilted(_ direction: Vector3, towardFaceUp degrees: Double) -> Vector3 {
        let radians = degrees * .pi / 180
        return Vector3(x: direction.x * cos(radians), y: direction.y * cos(radians), z: sin(radians))
    }

    static func of(_ pose: Pose) -> Vector3 {
        switch pose {
        case .normal: upright(turnedClockwise: 0)
        case .leftUp: upright(turnedClockwise: 90)
        case .bottomUp: upright(turnedClockwise: 180)
        case .rightUp: upright(turnedClockwise: 270)
        }
    }

    static let faceUp = Vector3(x: 0, y: 0, z: 1)
    static let faceDown = Vector3(x: 0, y: 0, z: -1)
}

/// Feeds a classifier a device held in given directions at a fixed rate, with small deterministic
/// noise, and records every change of its outputs.
struct ClassifierDriver {
    var classifier: OrientationClassifier
    /// Samples per second.
    var rate: Double
    /// The magnitude of gravity in the samples' unit (9.81 for m/s², 1024 for raw counts…).
    var scale: Double
    /// Noise on each axis, as a fraction of g.
    var noise: Double
    /// The time of the next sample.
    var time: Double = 0
    /// Deterministic noise: the same samples on every run.
    private var random = SeededGenerator(seed: 0x0DE1_7A5E)
    /// Every device orientation taken, in order (the initial `unknown` not included).
    private(set) var devices: [DeviceOrientation] = []
    /// Every pose taken, in order.
    private(set) var poses: [Pose] = []

    init(natural: NaturalOrientation = .landscape, rate: Double = 50, scale: Double = 9.81, noise: Double = 0.01) {
        classifier = OrientationClassifier(configuration: ClassifierConfiguration(natural: natural))
        self.rate = rate
        self.scale = scale
        self.noise = noise
    }

    var device: DeviceOrientation { classifier.deviceOrientation }
    var pose: Pose? { classifier.pose }

    /// Feeds one raw sample at `time` (no noise, no scaling) and advances the clock.
    /// - Returns: what the classifier returned (whether an output changed).
    @discardableResult
    mutating func feedRaw(_ acceleration: Vector3) -> Bool {
        let changed = classifier.update(Sample(time: time, acceleration: acceleration))
        if classifier.deviceOrientation != (devices.last ?? .unknown) { devices.append(classifier.deviceOrientation) }
        if let pose = classifier.pose, pose != poses.last { poses.append(pose) }
        time += 1 / rate
        return changed
    }

    /// Feeds one sample of gravity in `direction` (unit vector), scaled and with noise.
    @discardableResult
    mutating func step(_ direction: Vector3) -> Bool {
        let g = scale
        let n = noise * scale
        return feedRaw(
            Vector3(
                x: direction.x * g + n * random.symmetric(),
                y: direction.y * g + n * random.symmetric(),
                z: direction.z * g + n * random.symmetric()
            )
        )
    }

    /// Holds the device still with gravity in `direction` for `seconds`.
    mutating func hold(_ direction: Vector3, for seconds: Double) {
        for _ in 0..<Int((seconds * rate).rounded()) { step(direction) }
    }

    /// Turns the device smoothly (gravity swept along the great circle) over `seconds`.
    mutating func turn(from start: Vector3, to end: Vector3, over seconds: Double) {
        let count = max(1, Int((seconds * rate).rounded()))
        for index in 1...count {
            let f = Double(index) / Double(count)
            let mixed = Vector3(
                x: start.x * (1 - f) + end.x * f,
                y: start.y * (1 - f) + end.y * f,
                z: start.z * (1 - f) + end.z * f
            )
            let length = mixed.magnitude
            step(Vector3(x: mixed.x / length, y: mixed.y / length, z: mixed.z / length))
        }
    }
}
