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

/// Follows the hinge angle of a two-accelerometer convertible and decides tablet mode from it, with hysteresis.
///
/// A value type fed one sample at a time from either sensor: O(1) state, no allocation. Each sensor's readings
/// are low-pass filtered (τ 100 ms) and their motion measured from the size of the readings: the moving average
/// (τ 100 ms) of ((|a| − ā)/g)², ā being |a| averaged over a second. Turning the lid or the machine by hand leaves
/// |a| where it was, so a fold is followed as it happens; shaking, walking and knocks are not. Each sample pairs its sensor's filtered reading with the
/// other's latest, so that the two may run at different rates and with gaps.
///
/// The angle is **reliable** only while the hinge axis is at least 25° from vertical (the (y, z) part of each
/// reading at least sin 25° × g), both magnitudes are within 10 % of g and within 1 m/s² of each other, both
/// sensors are still, the other's reading is at most a second old, and the angle is between 10° and 350° (closed
/// and folded look the same to gravity). Otherwise ``angle`` is nil and the last decision stands. A reliable angle
/// at or above ``HingeConfiguration/tabletAngle`` means tablet mode, at or below
/// ``HingeConfiguration/laptopAngle`` laptop mode; in between the decision is kept.
///
/// Readings are in m/s² (the daemon's calibrated samples, and traces recorded by it).
public struct HingeMonitor: Sendable {
    /// Which accelerometer a sample comes from.
    public enum Sensor: Sendable, Hashable {
        /// The display's (lid's) accelerometer.
        case display
        /// The base's (keyboard's) accelerometer.
        case base
    }

    /// The reliable hinge angle in degrees, or nil while it cannot be trusted.
    public private(set) var angle: Double?
    /// The decision: true in tablet mode, false in laptop mode, nil before the first reliable angle outside the
    /// hysteresis band. Kept while the angle is unreliable and across ``stop()``.
    public private(set) var tabletMode: Bool?
    /// The thresholds in use; a change applies from the next reliable angle (the decision is kept until then).
    public var configuration: HingeConfiguration

    /// Standard gravity, m/s².
    public static let gravity = 9.806_65
    private static let filterTime = 0.100
    private static let motionTime = 0.100
    private static let magnitudeTime = 1.0
    /// The largest RMS deviation of |a| from its average (relative to g) that counts as still.
    private static let stillDeviation = 0.05
    private static let maximumGap = 1.0
    private static let magnitudeTolerance = 0.1
    private static let magnitudeAgreement = 1.0
    private static let lowestAngle = 10.0
    private static let highestAngle = 350.0
    /// sin 25° × g: the smallest (y, z) part of a reading for the hinge axis to be far enough from vertical.
    private static let smallestCrossPart = 0.422_618_261_740_699_4 * gravity

    private var display = Filter()
    private var base = Filter()

    /// A monitor with no reading yet.
    public init(configuration: HingeConfiguration = HingeConfiguration()) {
        self.configuration = configuration
    }

    /// Takes one sample of one sensor.
    /// - Returns: whether ``tabletMode`` changed.
    public mutating func update(_ sample: Sample, from sensor: Sensor) -> Bool {
        switch sensor {
        case .display: display.update(sample)
        case .base: base.update(sample)
        }
        return evaluate(at: sample.time)
    }

    /// Forgets the readings (the sensors stopped): the angle is unknown; the decision is kept.
    public mutating func stop() {
        display = Filter()
        base = Filter()
        angle = nil
    }

    /// Forgets one sensor's readings (it went away): the angle is unknown until it returns; the decision is kept.
    public mutating func forget(_ sensor: Sensor) {
        switch sensor {
        case .display: display = Filter()
        case .base: base = Filter()
        }
        angle = nil
    }

    private mutating func evaluate(at time: Double) -> Bool {
        angle = Self.reliableAngle(display, base, at: time)
        guard let angle else { return false }
        let previous = tabletMode
        if angle >= configuration.tabletAngle {
            tabletMode = true
        } else if angle <= configuration.laptopAngle {
            tabletMode = false
        }
        return tabletMode != previous
    }

    private static func reliableAngle(_ display: Filter, _ base: Filter, at time: Double) -> Double? {
        guard display.seeded, base.seeded,
            time - display.lastTime <= maximumGap, time - base.lastTime <= maximumGap,
            display.isStill, base.isStill
        else { return nil }
        let d = display.filtered
        let b = base.filtered
        let displayMagnitude = d.magnitude
        let baseMagnitude = b.magnitude
        guard (displayMagnitude - gravity).magnitude <= magnitudeTolerance * gravity,
            (baseMagnitude - gravity).magnitude <= magnitudeTolerance * gravity,
            (displayMagnitude - baseMagnitude).magnitude <= magnitudeAgreement,
            (d.y * d.y + d.z * d.z).squareRoot() >= smallestCrossPart,
            (b.y * b.y + b.z * b.z).squareRoot() >= smallestCrossPart
        else { return nil }
        let angle = HingeAngle.degrees(display: d, base: b)
        guard angle >= lowestAngle, angle <= highestAngle else { return nil }
        return angle
    }

    /// One sensor's low-pass filter and motion measure.
    private struct Filter: Sendable {
        var seeded = false
        var lastTime = 0.0
        var filtered = Vector3.zero
        /// |a| averaged over about a second.
        var meanMagnitude = 0.0
        /// The moving average of ((|a| − ``meanMagnitude``)/g)².
        var motion = 0.0

        var isStill: Bool { motion <= HingeMonitor.stillDeviation * HingeMonitor.stillDeviation }

        mutating func update(_ sample: Sample) {
            let a = sample.acceleration
            guard a.isFinite, sample.time.isFinite else { return }
            let dt = sample.time - lastTime
            guard seeded, dt > 0, dt <= HingeMonitor.maximumGap else {
                // The first reading, a gap or time going back: start again from this reading, not yet still.
                seeded = true
                lastTime = sample.time
                filtered = a
                meanMagnitude = a.magnitude
                motion = HingeMonitor.stillDeviation * HingeMonitor.stillDeviation * 4
                return
            }
            lastTime = sample.time
            let k = dt / (HingeMonitor.filterTime + dt)
            filtered.x += k * (a.x - filtered.x)
            filtered.y += k * (a.y - filtered.y)
            filtered.z += k * (a.z - filtered.z)
            let magnitude = a.magnitude
            meanMagnitude += dt / (HingeMonitor.magnitudeTime + dt) * (magnitude - meanMagnitude)
            let relative = (magnitude - meanMagnitude) / HingeMonitor.gravity
            let deviation = relative * relative
            let m = dt / (HingeMonitor.motionTime + dt)
            motion += m * (deviation - motion)
        }
    }
}
