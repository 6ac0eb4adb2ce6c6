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
import Testing

/// Turns while the screen is reclined (reading in bed, the device held low) are decided as fast as upright
/// ones, and the tilt of a turning device is not mistaken for lying flat.
@Suite struct ClassifierReclinedTests {
    /// Gravity for the device turned clockwise by `turn` degrees and reclined `tilt` degrees from vertical.
    private static func direction(turn: Double, tilt: Double) -> Vector3 {
        Gravity.tilted(Gravity.upright(turnedClockwise: turn), towardFaceUp: tilt)
    }

    /// Held still, turned by `by` degrees at a constant recline (a minimum-jerk turn over `seconds`), held
    /// again: the driver, and the time from the end of the turn to the new device orientation.
    private static func turn(
        from start: Double,
        by angle: Double,
        tilt: Double,
        over seconds: Double,
        rate: Double
    ) -> (ClassifierDriver, Double?) {
        var driver = ClassifierDriver(rate: rate)
        driver.hold(direction(turn: start, tilt: tilt), for: 2)
        let count = Int((seconds * rate).rounded())
        for index in 1...count {
            let s = Double(index) / Double(count)
            let progress = 10 * pow(s, 3) - 15 * pow(s, 4) + 6 * pow(s, 5)
            driver.step(direction(turn: start + angle * progress, tilt: tilt))
        }
        let end = driver.time - 1 / rate
        let target = Gravity.upright(turnedClockwise: start + angle)
        let pose = [Pose.normal, .leftUp, .bottomUp, .rightUp].first { Gravity.of($0).distance(to: target) < 0.01 }
        let expected = pose?.deviceOrientation(natural: .landscape)
        var decided: Double?
        for _ in 0..<Int(2 * rate) {
            let time = driver.time
            driver.step(direction(turn: start + angle, tilt: tilt))
            if decided == nil && driver.device == expected { decided = time - end }
        }
        return (driver, decided)
    }

    static let tilts = [0.0, 30, 50, 60, 65]

    @Test(arguments: tilts, [10.0, 25, 100])
    func reclinedTurnsAreDecidedAsFastAsUprightOnes(tilt: Double, rate: Double) throws {
        for (start, angle) in [(0.0, 90.0), (90, -90), (270, 180), (180, 90)] {
            for seconds in [0.3, 0.6, 1.0] {
                let (driver, decided) = Self.turn(from: start, by: angle, tilt: tilt, over: seconds, rate: rate)
                let latency = try #require(decided, "turn \(start)° by \(angle)° at \(tilt)° never decided")
                #expect(latency <= 0.150, "turn \(start)° by \(angle)° over \(seconds) s at \(tilt)°: \(latency) s")
                #expect(!driver.devices.contains(.faceUp), "a turn at \(tilt)° is not lying flat")
                // A 90° turn goes straight to the new orientation.
                if abs(angle) == 90 { #expect(driver.devices.count == 2, "\(driver.devices)") }
            }
        }
    }

    /// A half turn at a steep recline, read slowly: the filter still points at the pose in between when the samples
    /// have passed it, and that pose is never shown; the turn goes straight to the opposite one.
    @Test(arguments: [50.0, 60, 65, 68], [0.4, 0.5, 0.7, 1.0])
    func aHalfTurnAtTenHertzNeverShowsThePoseInBetween(tilt: Double, seconds: Double) throws {
        for start in [0.0, 90, 180, 270] {
            for angle in [180.0, -180] {
                let (driver, decided) = Self.turn(from: start, by: angle, tilt: tilt, over: seconds, rate: 10)
                let context = "turn \(start)° by \(angle)° over \(seconds) s at \(tilt)°"
                let latency = try #require(decided, "\(context) never decided")
                #expect(latency <= 0.150, "\(context): \(latency) s")
                #expect(driver.devices.count == 2, "\(context): \(driver.devices)")
            }
        }
    }

    /// Sway, tremor and a sensor's offset take a device standing at 65-68° just past the face angle (70°) at
    /// times: that is not lying on its back, and face up is not shown (nor held afterwards); one lying on its back
    /// (beyond 74°) goes face up within the usual 300 ms of stillness.
    @Test(arguments: [10.0, 25, 100])
    func justPastTheFaceAngleIsNotLyingFlat(rate: Double) {
        var driver = ClassifierDriver(rate: rate)
        driver.hold(Self.direction(turn: 90, tilt: 66), for: 2)
        // Just past 70° for two seconds, back to 66°.
        driver.hold(Self.direction(turn: 90, tilt: 71.5), for: 2)
        driver.hold(Self.direction(turn: 90, tilt: 66), for: 2)
        #expect(driver.devices == [.portrait], "\(driver.devices)")
        // Lying at 88° (a table with a slope): face up within 0.4 s.
        let before = driver.time
        var faceUp: Double?
        for _ in 0..<Int(rate) {
            driver.step(Self.direction(turn: 90, tilt: 88))
            if faceUp == nil && driver.device == .faceUp { faceUp = driver.time - before }
        }
        #expect((faceUp ?? .infinity) <= 0.4, "face up after \(faceUp ?? .infinity) s")
        // Staying past the face angle for long (a device lying on a cushion at 72°) is lying, after 2.5 s.
        var still = ClassifierDriver(rate: rate)
        still.hold(Self.direction(turn: 0, tilt: 66), for: 2)
        still.hold(Self.direction(turn: 0, tilt: 72), for: 3)
        #expect(still.devices == [.landscapeLeft, .faceUp], "\(still.devices)")
    }
}

extension Vector3 {
    fileprivate func distance(to other: Vector3) -> Double {
        ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y) + (z - other.z) * (z - other.z)).squareRoot()
    }
}
