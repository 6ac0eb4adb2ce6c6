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

/// A lasting change of the magnitude of gravity (a driver that changes its scale on resume, a calibration
/// written at run time, a trace that switches units) is learnt again; an impact is not.
@Suite struct ClassifierRescaleTests {
    /// The six states a device can be held in, with the direction of gravity in each.
    static let states: [(Vector3, DeviceOrientation)] = [
        (Gravity.of(.normal), .landscapeLeft), (Gravity.of(.leftUp), .portrait),
        (Gravity.of(.bottomUp), .landscapeRight), (Gravity.of(.rightUp), .portraitUpsideDown),
        (Gravity.faceUp, .faceUp), (Gravity.faceDown, .faceDown),
    ]

    /// Every state to every state (itself included: then nothing may change).
    static let transitions = states.indices.flatMap { from in states.indices.map { to in [from, to] } }

    static let factors = [0.001, 0.1, 0.5, 0.8, 1.25, 2, 3, 10, 1000]

    /// The time from the change to `expected`, or nil if it never came within `seconds`.
    private static func timeUntil(
        _ expected: DeviceOrientation,
        _ driver: inout ClassifierDriver,
        holding direction: Vector3,
        for seconds: Double
    ) -> Double? {
        let start = driver.time
        var reached: Double?
        for _ in 0..<Int((seconds * driver.rate).rounded()) {
            let time = driver.time
            driver.step(direction)
            if reached == nil && driver.device == expected { reached = time - start }
        }
        return reached
    }

    /// Held in `from` for 2 s at `scale`, then in `to` at `scale × factor`: the time `to` took.
    private static func change(
        from: Int,
        to: Int,
        factor: Double,
        rate: Double = 25,
        scale: Double = 9.81
    ) -> (ClassifierDriver, Double?) {
        var driver = ClassifierDriver(rate: rate, scale: scale)
        driver.hold(states[from].0, for: 2)
        driver.scale = scale * factor
        let took = timeUntil(states[to].1, &driver, holding: states[to].0, for: 4)
        return (driver, took)
    }

    @Test(arguments: factors, transitions)
    func aChangeOfScaleIsLearntAgain(factor: Double, transition: [Int]) throws {
        let (from, to) = (transition[0], transition[1])
        let (driver, took) = Self.change(from: from, to: to, factor: factor)
        let expected = from == to ? [Self.states[from].1] : [Self.states[from].1, Self.states[to].1]
        #expect(driver.devices == expected, "stuck, or through a wrong state")
        #expect(driver.classifier.gravity > 9.81 * factor * 0.97 && driver.classifier.gravity < 9.81 * factor * 1.03)
        guard from != to else { return }
        let seconds = try #require(took, "never reached \(Self.states[to].1)")
        // Within the usual time of the same move at one scale, plus the 400 ms that tell a new scale
        // from an impact; face up and face down within 800 ms of the new magnitude.
        let (_, usual) = Self.change(from: from, to: to, factor: 1)
        let usualSeconds = try #require(usual)
        #expect(seconds <= usualSeconds + 0.45, "took \(seconds) s, \(usualSeconds) s at one scale")
        if Self.states[to].1 == .faceUp || Self.states[to].1 == .faceDown {
            #expect(seconds <= 0.8, "took \(seconds) s")
        }
    }

    /// The case that was seen stuck: right edge up at |a| = 250, then face up at |a| = 762.
    @Test(arguments: [5.0, 10, 25, 100, 400])
    func rightEdgeUpAt250ThenFaceUpAt762(rate: Double) throws {
        var driver = ClassifierDriver(rate: rate, scale: 250)
        driver.hold(Gravity.of(.rightUp), for: 2)
        #expect(driver.device == .portraitUpsideDown)
        driver.scale = 762
        let took = Self.timeUntil(.faceUp, &driver, holding: Gravity.faceUp, for: 3)
        let seconds = try #require(took, "stuck in \(driver.device)")
        #expect(seconds <= 0.8)
        #expect(driver.devices == [.portraitUpsideDown, .faceUp])
    }

    /// Back and forth between two scales, each held for a second: every change is followed.
    @Test func scaleChangesBackAndForth() {
        var driver = ClassifierDriver(scale: 1024)
        let tour: [(Double, Int)] = [(1024, 0), (9.81, 1), (1024, 4), (16384, 2), (1, 5), (1024, 3), (9.81, 0)]
        for (scale, state) in tour {
            driver.scale = scale
            driver.hold(Self.states[state].0, for: 2)
        }
        #expect(driver.devices == tour.map { Self.states[$0.1].1 })
    }

    static let impactFactors = [0.001, 0.1, 2, 3, 10, 1000]

    /// The worst impact: for up to 300 ms the magnitude sits steadily at another level, pointing as another
    /// state would. Nothing changes, from any state toward any other.
    @Test(arguments: impactFactors, [0.1, 0.2, 0.3])
    func anImpactNeverRotates(factor: Double, seconds: Double) {
        for rate in [10.0, 25, 100] {
            for from in Self.states.indices {
                for toward in Self.states.indices where toward != from {
                    var driver = ClassifierDriver(rate: rate)
                    driver.hold(Self.states[from].0, for: 2)
                    let direction = Self.states[toward].0
                    let end = driver.time + seconds
                    while driver.time + 1e-9 < end {
                        driver.feedRaw(
                            Vector3(
                                x: direction.x * 9.81 * factor,
                                y: direction.y * 9.81 * factor,
                                z: direction.z * 9.81 * factor
                            )
                        )
                    }
                    driver.hold(Self.states[from].0, for: 3)
                    #expect(driver.devices == [Self.states[from].1], "\(rate) Hz, toward \(Self.states[toward].1)")
                    #expect(driver.classifier.gravity > 9.5 && driver.classifier.gravity < 10.1)
                }
            }
        }
    }
}
