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
import Testing

/// iio-sensor-proxy's `AccelerometerTilt` from the classifier's output: the face states are the classifier's,
/// the tilt between them follows the elevation of the screen with hysteresis.
@Suite struct TiltTrackerTests {
    /// A unit reading whose screen normal is `degrees` above the horizon, standing on its bottom edge.
    static func leaning(_ degrees: Double) -> Vector3 {
        // The standard library has no trigonometry: the sine by its series, the cosine from it (|angle| < 90°).
        let sine = Self.sine(degrees * Double.pi / 180)
        let cosine = (1 - sine * sine).squareRoot()
        return Vector3(x: 0, y: -9.81 * cosine, z: 9.81 * sine)
    }

    /// `tracker.update`, for `#expect` (which cannot take a mutating call).
    static func update(_ tracker: inout TiltTracker, acceleration: Vector3, device: DeviceOrientation) -> Bool {
        tracker.update(acceleration: acceleration, device: device)
    }

    /// `tracker.reset`, for `#expect`.
    static func reset(_ tracker: inout TiltTracker) -> Bool {
        tracker.reset()
    }

    static func sine(_ x: Double) -> Double {
        var term = x
        var sum = x
        for n in stride(from: 2.0, through: 30, by: 2) {
            term *= -x * x / (n * (n + 1))
            sum += term
        }
        return sum
    }

    @Test(arguments: [
        (0.0, DeviceTilt.vertical), (15, .vertical), (29, .vertical), (31, .tiltedUp), (60, .tiltedUp),
        (-29, .vertical), (-31, .tiltedDown), (-60, .tiltedDown),
    ])
    func uprightTiltFromTheElevation(degrees: Double, expected: DeviceTilt) {
        var tracker = TiltTracker()
        #expect(Self.update(&tracker, acceleration: Self.leaning(degrees), device: .landscapeLeft))
        #expect(tracker.tilt == expected)
    }

    @Test func hysteresisKeepsATiltUntilItFallsBelowTheExitAngle() {
        var tracker = TiltTracker()
        _ = tracker.update(acceleration: Self.leaning(35), device: .portrait)
        #expect(tracker.tilt == .tiltedUp)
        #expect(
            !Self.update(&tracker, acceleration: Self.leaning(25), device: .portrait),
            "25° is above the exit angle"
        )
        #expect(tracker.tilt == .tiltedUp)
        #expect(Self.update(&tracker, acceleration: Self.leaning(15), device: .portrait))
        #expect(tracker.tilt == .vertical)
        #expect(
            !Self.update(&tracker, acceleration: Self.leaning(25), device: .portrait),
            "25° is below the enter angle"
        )
        _ = tracker.update(acceleration: Self.leaning(-35), device: .portrait)
        #expect(tracker.tilt == .tiltedDown)
        #expect(!Self.update(&tracker, acceleration: Self.leaning(-25), device: .portrait))
        #expect(Self.update(&tracker, acceleration: Self.leaning(-15), device: .portrait))
        #expect(tracker.tilt == .vertical)
    }

    @Test func theFaceStatesAndUnknownComeFromTheDeviceOrientation() {
        var tracker = TiltTracker()
        #expect(!Self.update(&tracker, acceleration: Self.leaning(0), device: .unknown), "undefined before anything")
        #expect(Self.update(&tracker, acceleration: Self.leaning(75), device: .faceUp))
        #expect(tracker.tilt == .faceUp)
        #expect(Self.update(&tracker, acceleration: Self.leaning(-75), device: .faceDown))
        #expect(tracker.tilt == .faceDown)
        // Leaving face-down at 55° forward is a strong forward tilt, not a face state.
        #expect(Self.update(&tracker, acceleration: Self.leaning(-55), device: .landscapeRight))
        #expect(tracker.tilt == .tiltedDown)
        #expect(Self.update(&tracker, acceleration: Self.leaning(0), device: .unknown))
        #expect(tracker.tilt == .undefined)
    }

    @Test func theScaleOfTheReadingDoesNotMatter() {
        var counts = TiltTracker()
        var metres = TiltTracker()
        let reading = Self.leaning(40)
        _ = metres.update(acceleration: reading, device: .portrait)
        let scaled = Vector3(x: reading.x * 100, y: reading.y * 100, z: reading.z * 100)
        _ = counts.update(acceleration: scaled, device: .portrait)
        #expect(counts.tilt == metres.tilt)
        #expect(!Self.update(&counts, acceleration: .zero, device: .portrait), "no direction: nothing changes")
        #expect(counts.tilt == .tiltedUp)
    }

    @Test func resetForgetsTheTilt() {
        var tracker = TiltTracker()
        #expect(!Self.reset(&tracker))
        _ = tracker.update(acceleration: Self.leaning(0), device: .portrait)
        #expect(Self.reset(&tracker))
        #expect(tracker.tilt == .undefined)
    }

    @Test func wireNamesAreIIOSensorProxys() {
        #expect(
            DeviceTilt.allCases.map(\.wireName) == [
                "undefined", "vertical", "tilted-up", "tilted-down", "face-up", "face-down",
            ]
        )
    }
}
