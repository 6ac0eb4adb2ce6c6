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

/// Feeds a ``HingeMonitor`` with both sensors at their own rates.
struct HingeFeed {
    var monitor = HingeMonitor()
    var time = 0.0
    var displayRate = 25.0
    var baseRate = 10.0
    private var nextDisplay = 0.0
    private var nextBase = 0.0
    /// The tablet-mode values the monitor reported, in order, with their times.
    private(set) var changes: [(time: Double, tabletMode: Bool?)] = []

    /// Holds a pose for `seconds`: each sensor reads its vector at its own rate (plus `noise`, a deterministic
    /// wobble of that many m/s²).
    mutating func hold(display: Vector3, base: Vector3, seconds: Double, noise: Double = 0) {
        let end = time + seconds
        while true {
            let next = min(nextDisplay, nextBase)
            guard next < end else { break }
            time = next
            let wobble = noise * Self.wobble(time)
            if nextDisplay <= nextBase {
                let d = Vector3(x: display.x + wobble, y: display.y - wobble, z: display.z + wobble)
                record(monitor.update(Sample(time: time, acceleration: d), from: .display))
                nextDisplay += 1 / displayRate
            } else {
                let b = Vector3(x: base.x - wobble, y: base.y + wobble, z: base.z - wobble)
                record(monitor.update(Sample(time: time, acceleration: b), from: .base))
                nextBase += 1 / baseRate
            }
        }
        time = end
    }

    /// Holds the machine at hinge angle `angle`, the base as given.
    mutating func hold(angle: Double, roll: Double = 0, pitch: Double = 0, seconds: Double = 1, noise: Double = 0) {
        let base = Convertible.base(roll: roll, pitch: pitch)
        hold(display: Convertible.display(angle: angle, base: base), base: base, seconds: seconds, noise: noise)
    }

    private mutating func record(_ changed: Bool) {
        if changed { changes.append((time, monitor.tabletMode)) }
    }

    private static func wobble(_ t: Double) -> Double {
        // A fixed mix of frequencies, in [-1, 1].
        let a = (t * 37.3).truncatingRemainder(dividingBy: 2) - 1
        let b = (t * 11.7).truncatingRemainder(dividingBy: 2) - 1
        return (a + b) / 2
    }
}

@Suite struct HingeMonitorTests {
    @Test(arguments: [95.0, 120, 135, 180, 250, 270, 300, 330])
    func stillMachineGivesItsAngle(angle: Double) throws {
        var feed = HingeFeed()
        feed.hold(angle: angle, roll: 10, pitch: 20, seconds: 1, noise: 0.1)
        let measured = try #require(feed.monitor.angle)
        #expect(Convertible.distance(measured, angle) < 2, "\(measured)")
    }

    @Test func tabletAtTwoHundredLaptopAtOneSixtyKeptBetween() {
        var feed = HingeFeed()
        #expect(feed.monitor.tabletMode == nil)
        feed.hold(angle: 180)
        #expect(feed.monitor.tabletMode == nil, "the band decides nothing")
        feed.hold(angle: 120)
        #expect(feed.monitor.tabletMode == false)
        feed.hold(angle: 195)
        #expect(feed.monitor.tabletMode == false)
        feed.hold(angle: 205)
        #expect(feed.monitor.tabletMode == true)
        feed.hold(angle: 165)
        #expect(feed.monitor.tabletMode == true)
        feed.hold(angle: 155)
        #expect(feed.monitor.tabletMode == false)
        #expect(feed.changes.map(\.tabletMode) == [false, true, false])
    }

    @Test func customThresholds() throws {
        var feed = HingeFeed()
        feed.monitor = HingeMonitor(
            configuration: try HingeConfiguration(tabletAngleDegrees: 300, laptopAngleDegrees: 100)
        )
        feed.hold(angle: 270)
        #expect(feed.monitor.tabletMode == nil)
        feed.hold(angle: 310)
        #expect(feed.monitor.tabletMode == true)
        feed.hold(angle: 120)
        #expect(feed.monitor.tabletMode == true)
        feed.hold(angle: 90)
        #expect(feed.monitor.tabletMode == false)
    }

    /// Cases where gravity cannot tell the angle: nil, and the last decision stands.
    @Test(arguments: [
        ("hinge axis vertical (book posture)", Convertible.base(roll: 0, pitch: 70), 120.0),
        ("closed", Convertible.base(roll: 0), 3.0),
        ("folded", Convertible.base(roll: 0), 357.0),
        ("magnitudes far from g", Convertible.base(roll: 0, magnitude: 1.2 * Convertible.g), 120.0),
    ])
    func unreliablePosesKeepTheDecision(name: String, base: Vector3, angle: Double) {
        var feed = HingeFeed()
        feed.hold(angle: 250)
        #expect(feed.monitor.tabletMode == true)
        let display = Convertible.display(angle: angle, base: base)
        feed.hold(display: display, base: base, seconds: 2)
        #expect(feed.monitor.angle == nil, "\(name)")
        #expect(feed.monitor.tabletMode == true, "\(name)")
    }

    @Test func magnitudesThatComeApartAreUnreliable() {
        var feed = HingeFeed()
        feed.hold(angle: 120, seconds: 3)
        #expect(feed.monitor.tabletMode == false)
        // Each still within 10 % of what it read, but now 1.08 m/s² apart: one of them accelerates.
        let base = Convertible.base(roll: 0, magnitude: Convertible.g - 0.54)
        let display = Convertible.display(angle: 120, base: Convertible.base(roll: 0, magnitude: Convertible.g + 0.54))
        feed.hold(display: display, base: base, seconds: 0.5)
        #expect(feed.monitor.angle == nil)
        #expect(feed.monitor.tabletMode == false)
    }

    /// Sensors whose scales differ (each part has its own calibration) read different magnitudes on a still machine
    /// all the time: each is taken against its own level, and the angle is trusted.
    @Test(arguments: [(1.05, 0.945), (0.93, 1.07), (1.12, 1.12)])
    func sensorsWhoseScalesDifferAreReliable(display: Double, base: Double) throws {
        var feed = HingeFeed()
        let baseReading = Convertible.base(roll: 0, magnitude: Convertible.g * base)
        let displayReading = Convertible.display(
            angle: 120,
            base: Convertible.base(roll: 0, magnitude: Convertible.g * display)
        )
        feed.hold(display: displayReading, base: baseReading, seconds: 1)
        let angle = try #require(feed.monitor.angle)
        #expect(abs(angle - 120) < 0.5)
        #expect(feed.monitor.tabletMode == false)
    }

    @Test func magnitudesWithinTheToleranceAreReliable() throws {
        var feed = HingeFeed()
        let base = Convertible.base(roll: 0, magnitude: Convertible.g - 0.45)
        let display = Convertible.display(angle: 120, base: Convertible.base(roll: 0, magnitude: Convertible.g + 0.45))
        feed.hold(display: display, base: base, seconds: 2)
        let angle = try #require(feed.monitor.angle)
        #expect(Convertible.distance(angle, 120) < 1e-6)
        #expect(feed.monitor.tabletMode == false)
    }

    @Test func shakingIsUnreliable() {
        var feed = HingeFeed()
        feed.hold(angle: 250, seconds: 1)
        #expect(feed.monitor.tabletMode == true)
        feed.hold(angle: 120, seconds: 2, noise: 4)
        #expect(feed.monitor.angle == nil)
        #expect(feed.monitor.tabletMode == true)
    }

    @Test func aSilentSensorMakesTheAngleUnknown() {
        var feed = HingeFeed()
        feed.hold(angle: 120, seconds: 1)
        #expect(feed.monitor.angle != nil)
        // Only the display reads for two seconds: the base's last reading is too old to pair with.
        feed.baseRate = 0.4
        feed.hold(angle: 120, seconds: 2.6)
        #expect(feed.monitor.angle == nil)
        #expect(feed.monitor.tabletMode == false)
    }

    @Test func stopForgetsTheAngleAndKeepsTheDecision() {
        var feed = HingeFeed()
        feed.hold(angle: 300)
        feed.monitor.stop()
        #expect(feed.monitor.angle == nil)
        #expect(feed.monitor.tabletMode == true)
        feed.monitor.forget(.base)
        #expect(feed.monitor.tabletMode == true)
    }

    /// Moves the hinge from `from` to `to` (degrees, may leave [0°, 360°)) in `seconds`, in small steps.
    private static func sweep(_ feed: inout HingeFeed, from: Double, to: Double, seconds: Double, roll: Double = 0) {
        let steps = 20
        for step in 1...steps {
            let angle = from + (to - from) * Double(step) / Double(steps)
            feed.hold(angle: (angle + 360).truncatingRemainder(dividingBy: 360), roll: roll, seconds: seconds / 20)
        }
    }

    /// A folded tablet whose readings creep past 360° to 13° (as a turn in the hands makes them) and rest there is
    /// still folded: a hinge cannot go from 359° to 13° without the laptop range. The same for a closed lid whose
    /// readings creep below 0°.
    @Test func theSeamIsNeverCrossed() {
        var feed = HingeFeed()
        feed.hold(angle: 300, seconds: 2)
        #expect(feed.monitor.tabletMode == true)
        Self.sweep(&feed, from: 300, to: 357, seconds: 1)
        Self.sweep(&feed, from: 357, to: 373, seconds: 0.5, roll: -30)
        feed.hold(angle: 13, roll: -30, seconds: 3)
        #expect(feed.monitor.angle == nil)
        #expect(feed.monitor.tabletMode == true)

        var closed = HingeFeed()
        closed.hold(angle: 100, seconds: 2)
        #expect(closed.monitor.tabletMode == false)
        Self.sweep(&closed, from: 100, to: 3, seconds: 1)
        Self.sweep(&closed, from: 3, to: -13, seconds: 0.5, roll: 30)
        closed.hold(angle: 347, roll: 30, seconds: 3)
        #expect(closed.monitor.angle == nil)
        #expect(closed.monitor.tabletMode == false)
    }

    /// A track that went astray while the machine moved (readings farther past the seam than a still hinge can
    /// read) gives way to the reading once the machine is still: a stand at 300° is a stand.
    @Test func aStillReadingFarPastTheSeamRestartsTheTrack() throws {
        var feed = HingeFeed()
        feed.hold(angle: 100, seconds: 2)
        #expect(feed.monitor.tabletMode == false)
        Self.sweep(&feed, from: 100, to: -60, seconds: 0.5)
        feed.hold(angle: 300, seconds: 2)
        let angle = try #require(feed.monitor.angle)
        #expect(Convertible.distance(angle, 300) < 1)
        #expect(feed.monitor.tabletMode == true)
    }

    /// After the track is lost (a second without a usable reading), a reading near the seam decides nothing:
    /// the trusted range is 20°…340°.
    @Test(arguments: [5.0, 15.0, 345.0, 355.0])
    func anglesNearTheSeamAreNotTrusted(angle: Double) {
        var feed = HingeFeed()
        feed.hold(angle: angle, seconds: 3)
        #expect(feed.monitor.angle == nil)
        #expect(feed.monitor.tabletMode == nil)
    }

    /// An excursion of the angle while the machine moves (a turn on a table reads tens of degrees off) is no fold:
    /// it must rise by 90° to 240° or more.
    @Test func anExcursionWhileMovingIsNoFold() {
        var feed = HingeFeed()
        feed.hold(angle: 180, seconds: 2)
        #expect(feed.monitor.tabletMode == nil)
        Self.sweep(&feed, from: 180, to: 265, seconds: 0.6)
        Self.sweep(&feed, from: 265, to: 180, seconds: 0.6)
        feed.hold(angle: 180, seconds: 2)
        #expect(feed.monitor.tabletMode == nil)
    }

    /// A machine turned continuously never passes as still, however steady the size of its readings.
    @Test func aTurningMachineIsNotStill() {
        var feed = HingeFeed()
        feed.hold(angle: 120, seconds: 2)
        #expect(feed.monitor.tabletMode == false)
        // Two turns about the hinge in 4 s: each reading's size is g throughout.
        for step in 1...200 {
            feed.hold(angle: 120, roll: 3.6 * Double(step), seconds: 0.02)
            #expect(feed.monitor.angle == nil, "step \(step)")
        }
        #expect(feed.monitor.tabletMode == false)
    }

    /// At the sensors' idle rate (2 Hz while the display is still) the angle stays known and the seam followed.
    @Test func theIdleRateKeepsTheAngle() throws {
        var feed = HingeFeed()
        feed.hold(angle: 130, seconds: 2)
        feed.displayRate = 2
        feed.baseRate = 2
        feed.hold(angle: 130, seconds: 6, noise: 0.05)
        let angle = try #require(feed.monitor.angle)
        #expect(Convertible.distance(angle, 130) < 2)
        #expect(feed.monitor.tabletMode == false)
    }

    /// Folding from laptop to tablet in 0.8 s: tablet mode within half a second of the fold's end.
    @Test(arguments: [(25.0, 10.0), (10.0, 25.0), (100.0, 100.0), (10.0, 10.0)])
    func foldIsDecidedWithinHalfASecond(displayRate: Double, baseRate: Double) throws {
        var feed = HingeFeed()
        feed.displayRate = displayRate
        feed.baseRate = baseRate
        feed.hold(angle: 110, seconds: 1, noise: 0.1)
        #expect(feed.monitor.tabletMode == false)
        let steps = 40
        for step in 1...steps {
            feed.hold(angle: 110 + 230 * Double(step) / Double(steps), seconds: 0.8 / Double(steps), noise: 0.3)
        }
        let end = feed.time
        feed.hold(angle: 340, seconds: 1.5, noise: 0.1)
        let entered = try #require(feed.changes.last { $0.tabletMode == true })
        #expect(entered.time - end <= 0.5, "entered \(entered.time - end) s after the fold")
    }
}
