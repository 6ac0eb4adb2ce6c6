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

/// The classifier under motion: shaking, knocks and glitched samples delay decisions and never make wrong ones.
@Suite struct ClassifierMotionTests {
    /// Gravity along `direction` plus a vertical shake of `amplitude` g at 2 Hz (a walk's bounce).
    private static func shaken(
        _ driver: inout ClassifierDriver,
        _ direction: Vector3,
        amplitude: Double,
        for seconds: Double
    ) {
        for _ in 0..<Int(seconds * driver.rate) {
            let bounce = 1 + amplitude * Trig.sin(2 * Double.pi * 2 * driver.time)
            driver.feedRaw(
                Vector3(x: direction.x * 9.81 * bounce, y: direction.y * 9.81 * bounce, z: direction.z * 9.81 * bounce)
            )
        }
    }

    @Test func faceDownWaitsUntilTheDeviceIsStill() {
        var driver = ClassifierDriver()
        driver.hold(Gravity.of(.normal), for: 1)
        #expect(driver.device == .landscapeLeft)
        // Screen down but shaken hard (held overhead while walking): not face down yet.
        Self.shaken(&driver, Gravity.faceDown, amplitude: 0.3, for: 4)
        #expect(driver.device == .landscapeLeft)
        // Laid still on its face: face down.
        driver.hold(Gravity.faceDown, for: 2)
        #expect(driver.device == .faceDown)
        #expect(driver.devices == [.landscapeLeft, .faceDown])
    }

    @Test func shakingInAPoseNeverRotates() {
        var driver = ClassifierDriver()
        driver.hold(Gravity.of(.leftUp), for: 1)
        Self.shaken(&driver, Gravity.tilted(Gravity.of(.leftUp), towardFaceUp: 40), amplitude: 0.4, for: 10)
        #expect(driver.devices == [.portrait])
    }

    @Test func singleGlitchedSamplesAreIgnored() {
        var driver = ClassifierDriver()
        driver.hold(Gravity.of(.normal), for: 1)
        for _ in 0..<20 {
            // A saturated sample pointing elsewhere, a zero sample, then normal readings.
            driver.feedRaw(Vector3(x: 16 * 9.81, y: 16 * 9.81, z: -16 * 9.81))
            driver.feedRaw(.zero)
            driver.hold(Gravity.of(.normal), for: 0.1)
        }
        #expect(driver.devices == [.landscapeLeft])
    }
}

/// Sine for test signals (the standard library has none; Foundation is kept out of these tests).
private enum Trig {
    static func sin(_ x: Double) -> Double {
        var angle = x.truncatingRemainder(dividingBy: 2 * Double.pi)
        if angle > Double.pi { angle -= 2 * Double.pi }
        if angle < -Double.pi { angle += 2 * Double.pi }
        var term = angle
        var sum = angle
        for n in stride(from: 2.0, through: 30, by: 2) {
            term *= -angle * angle / (n * (n + 1))
            sum += term
        }
        return sum
    }
}
