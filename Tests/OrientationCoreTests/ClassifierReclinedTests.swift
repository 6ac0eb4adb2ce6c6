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
}

extension Vector3 {
    fileprivate func distance(to other: Vector3) -> Double {
        ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y) + (z - other.z) * (z - other.z)).squareRoot()
    }
}
