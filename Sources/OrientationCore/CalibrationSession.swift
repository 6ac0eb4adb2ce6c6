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

/// A guided mount-matrix calibration, from readings to matrices: it takes each step's pose when every accelerometer
/// the step uses is held still in a new pose, refuses a pose that cannot be part of a mount matrix (far from 1 g,
/// tilted between axes, along an axis already read), and derives each accelerometer's matrix from its three poses.
///
/// Readings are raw: after the driver's scale, before any mount matrix. Nothing here reads a sensor or a clock.
public struct CalibrationSession: Sendable {
    /// What happened on a reading.
    public enum Event: Sendable, Equatable {
        /// The pose of step `index` (from 0) was taken: the mean raw readings of the sensors it uses.
        case held(index: Int, readings: [CalibratedSensor: Vector3])
        /// The pose of step `index` was refused, and why; the step is asked again.
        case refused(index: Int, why: String)
        /// The last step's pose was taken (its readings, as in ``held(index:readings:)``) and the matrices derived.
        case finished(CalibrationOutcome, lastHeld: [CalibratedSensor: Vector3])
        /// The steps taken cannot give a mount matrix.
        case failed(String)
    }

    /// The steps.
    public let plan: CalibrationPlan
    /// The step being asked for (from 0); `plan.steps.count` once finished.
    public private(set) var current = 0
    /// The size of gravity in the readings' unit, when known (m/s² after a scale); else learnt from the first pose.
    public private(set) var gravity: Double?
    /// How far the size of a still reading may be from gravity, as a fraction.
    public var gravityTolerance = 0.15
    /// The largest angle, in degrees, between a pose's reading and the nearest axis.
    public var axisToleranceDegrees = 20.0

    private var holds: [CalibratedSensor: PoseHold] = [:]
    private var taken: [CalibratedSensor: [(step: Int, raw: Vector3, expected: Vector3)]] = [:]

    /// A session for `plan`; `gravity` is 9.80665 when readings are in m/s², nil when they are raw counts.
    public init(plan: CalibrationPlan, gravity: Double?, holdSeconds: Double = 1.5) {
        self.plan = plan
        self.gravity = gravity
        for sensor in plan.sensors {
            var hold = PoseHold(holdSeconds: holdSeconds)
            hold.gravity = gravity
            holds[sensor] = hold
            taken[sensor] = []
        }
    }

    /// The step being asked for, or nil once finished.
    public var step: CalibrationStep? { current < plan.steps.count ? plan.steps[current] : nil }

    /// What the readings of `sensor` show now.
    public func state(of sensor: CalibratedSensor) -> PoseHold.State {
        holds[sensor]?.state ?? .waiting
    }

    /// The latest reading of `sensor`.
    public func latest(of sensor: CalibratedSensor) -> Vector3? {
        holds[sensor]?.latest
    }

    /// How far the current step is: the least of its sensors' hold fractions (0 moving or not turned, 1 held).
    public var progress: Double {
        guard let step else { return 1 }
        var least = 1.0
        for sensor in plan.sensors where step.expected(sensor) != nil {
            switch holds[sensor]?.state ?? .waiting {
            case .held: continue
            case .holding(let fraction): least = min(least, fraction)
            case .waiting, .moving, .notTurned: least = 0
            }
        }
        return least
    }

    /// Adds a raw reading of `sensor` at `time` seconds; returns what it completed, if anything.
    public mutating func add(_ reading: Vector3, of sensor: CalibratedSensor, at time: Double) -> Event? {
        guard holds[sensor] != nil, reading.isFinite else { return nil }
        holds[sensor]?.add(reading, at: time)
        guard let step else { return nil }
        var readings: [CalibratedSensor: Vector3] = [:]
        for used in plan.sensors where step.expected(used) != nil {
            guard case .held(let mean) = holds[used]?.state ?? .waiting else { return nil }
            readings[used] = mean
        }
        let index = current
        for (used, mean) in readings.sorted(by: { $0.key.rawValue > $1.key.rawValue }) {
            let scale = gravity ?? mean.magnitude
            if let drift = holds[used]?.drift, drift > 0.05 * scale {
                holds[used]?.refuse(mean)
                return .refused(
                    index: index,
                    why: "it moved while it was held (by \(Int((drift / scale * 100).rounded())) % of 1 g): "
                        + "rest it, or hold it still against something"
                )
            }
            if let why = problem(with: mean, of: used) {
                holds[used]?.refuse(mean)
                return .refused(index: index, why: why)
            }
        }
        for (used, mean) in readings {
            if gravity == nil { gravity = mean.magnitude }
            taken[used, default: []].append((index, mean, step.expected(used)!))
            holds[used]?.avoid(mean)
            holds[used]?.gravity = gravity
        }
        for sensor in plan.sensors { holds[sensor]?.restart() }
        current += 1
        return current < plan.steps.count ? .held(index: index, readings: readings) : finish(held: readings)
    }

    /// Why the still reading `mean` of `sensor` cannot be this step's pose, or nil when it can.
    private func problem(with mean: Vector3, of sensor: CalibratedSensor) -> String? {
        let length = mean.magnitude
        let name = plan.hasBase ? "the \(sensor.rawValue) accelerometer" : "the accelerometer"
        if let gravity, abs(length - gravity) > gravityTolerance * gravity {
            return "\(name) read \(Self.decimal(length)) where gravity reads \(Self.decimal(gravity)): "
                + "far from 1 g; hold it still, not pressed or shaken, and try again"
        }
        guard length > 0 else { return "\(name) read zero on every axis" }
        let (axis, value) = mean.dominantAxis
        let degrees = Trigonometry.arccosineDegrees(abs(value) / length)
        if degrees > axisToleranceDegrees {
            return "it was held \(Int(degrees.rounded()))° away from the pose asked for; hold it squarer"
        }
        for earlier in taken[sensor] ?? [] where earlier.raw.dominantAxis.index == axis {
            return "\(name) read the same axis as in step \(earlier.step + 1): "
                + "this pose must be a quarter turn from that one, not the same or upside down"
        }
        return nil
    }

    /// The matrices from every sensor's three poses, checked against each other.
    private func finish(held readings: [CalibratedSensor: Vector3]) -> Event {
        var matrices: [CalibratedSensor: MountMatrix] = [:]
        for sensor in plan.sensors {
            let poses = taken[sensor] ?? []
            guard let matrix = MountMatrixFit.fit(raw: poses.map(\.raw), expected: poses.map(\.expected)) else {
                return .failed("the poses of the \(sensor.rawValue) accelerometer do not give a mount matrix")
            }
            for pose in poses {
                let corrected = matrix.apply(to: pose.raw)
                let cosine = corrected.dot(pose.expected) / corrected.magnitude
                guard cosine >= Trigonometry.cosine(degrees: 2 * axisToleranceDegrees) else {
                    return .failed(
                        "the poses of the \(sensor.rawValue) accelerometer are inconsistent: step \(pose.step + 1) "
                            + "does not fit the others (was one of them turned the wrong way?)"
                    )
                }
            }
            matrices[sensor] = matrix
        }
        if let check = hingeCheck(matrices) { return .failed(check) }
        return .finished(CalibrationOutcome(matrices: matrices, steps: plan.steps.count), lastHeld: readings)
    }

    /// A rigid, still machine reads the same hinge-axis (x) component on both accelerometers: in every step that
    /// took both, the corrected readings must agree on it.
    private func hingeCheck(_ matrices: [CalibratedSensor: MountMatrix]) -> String? {
        guard let display = matrices[.display], let base = matrices[.base] else { return nil }
        let displayPoses = taken[.display] ?? []
        for basePose in taken[.base] ?? [] {
            guard let displayPose = displayPoses.first(where: { $0.step == basePose.step }) else { continue }
            let d = display.apply(to: displayPose.raw).scaled(by: 1 / displayPose.raw.magnitude)
            let b = base.apply(to: basePose.raw).scaled(by: 1 / basePose.raw.magnitude)
            if abs(d.x - b.x) > 0.25 {
                return "the display and base accelerometers disagree on the hinge axis in step \(basePose.step + 1) "
                    + "(\(Self.decimal(d.x)) g and \(Self.decimal(b.x)) g): the machine moved, or one sensor is not "
                    + "where its location says"
            }
        }
        return nil
    }

    /// `value` with two decimals, for messages.
    public static func decimal(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let size = abs(hundredths)
        let fraction = size % 100
        return "\(sign)\(size / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

/// What a calibration found: each accelerometer's mount matrix.
public struct CalibrationOutcome: Sendable, Equatable {
    /// The matrix of each sensor calibrated.
    public var matrices: [CalibratedSensor: MountMatrix]
    /// How many steps were taken.
    public var steps: Int

    public init(matrices: [CalibratedSensor: MountMatrix], steps: Int) {
        self.matrices = matrices
        self.steps = steps
    }
}

extension Trigonometry {
    /// acos(c) in degrees, for c in [−1, 1].
    static func arccosineDegrees(_ c: Double) -> Double {
        let clamped = max(-1, min(1, c))
        return arctangent(y: (1 - clamped * clamped).squareRoot(), x: clamped)
    }
}
