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

/// What a mount matrix that cannot be right looks like in the readings, found while the machine is in use: each
/// finding at most once per sensor and kind, with the matrix to use instead when the evidence determines it.
///
/// - Two accelerometers of a rigid machine read the same component along the hinge axis (x) whenever the machine is
///   still; a sustained disagreement means one of them is read in the wrong frame.
/// - With the base lying face up (on a desk or a lap: z ≈ −g in systemd's frame, where a base reads what the display
///   reads with the lid closed), the lid can only stand upright-ish: a display whose reading in its own plane points
///   anywhere but down (−y) is read in the wrong frame.
/// - A base entry written by `orientd calibrate` before it used systemd's frame (it used the display's with the lid
///   opened flat: a half turn about the hinge away) reads z ≈ +g under a display standing upright over it, and the
///   hinge angle is off by 180° (a laptop at 110° reads 290°, tablet mode). The same readings come from a stand at
///   270° with a right entry, so this is said only of such an entry (``baseEntryMayBeOldFrame``).
/// - With one accelerometer, a switch that says laptop mode and a display that reads sideways or upside down, still,
///   for minutes on end, say the same.
///
/// Samples are calibrated (after the mount matrix), in m/s². No allocation per sample once a finding is made.
public struct AxesCheck: Sendable {
    /// One finding.
    public struct Finding: Sendable, Hashable {
        /// What kind of evidence.
        public enum Kind: String, Sendable, Hashable {
            case hingeAxis = "hinge-axis"
            case notUpright = "not-upright"
            case matrix
            /// A base entry in the frame orientd used before systemd's.
            case oldBaseFrame = "old-base-frame"
        }

        /// When it was made (the sample's time).
        public var time: Double
        /// Which accelerometer's axes cannot be right.
        public var sensor: CalibratedSensor
        public var kind: Kind
        /// What was seen, in words, ending with what to do.
        public var text: String
        /// The matrix to use instead, when the evidence determines it.
        public var suggested: MountMatrix?
    }

    /// Still seconds of disagreement on the hinge axis before it is a finding.
    public var hingeSeconds = 5.0
    /// Still seconds of a display not upright over a flat base before it is a finding.
    public var baseFlatSeconds = 20.0
    /// Still seconds of a display not upright in laptop mode (one accelerometer) before it is a finding.
    public var laptopSeconds = 300.0
    /// Still seconds of a display upright over a base that reads keyboard down, with an entry that may be in the old
    /// frame, before it is a finding.
    public var oldFrameSeconds = 10.0
    /// Whether the base's matrix comes from a hwdb entry that `orientd calibrate` wrote before it used systemd's
    /// frame (the daemon finds out from the local hwdb file).
    public var baseEntryMayBeOldFrame = false

    private static let g = 9.806_65
    private var display = StillFilter()
    private var base = StillFilter()
    private var hingeTime = 0.0
    private var hingeSums = (display: 0.0, base: 0.0)
    private var laptopTime = 0.0
    private var oldFrameTime = 0.0
    private var sideways = (x: 0.0, y: 0.0)
    private var reported: Set<String> = []
    /// Still seconds in which the display's axis `index` (0 +x, 1 −x, 2 +y, 3 −y, 4 +z, 5 −z) read what the base read
    /// along a hinge axis far from horizontal: where the display's true x axis is.
    private var hingeVotes = [Double](repeating: 0, count: 6)
    /// The display's current mount matrix, to suggest a corrected one; nil: suggest in the calibrated frame.
    public var displayMatrix: MountMatrix?
    /// Whether a switch (or the user) says the machine is in laptop mode now; nil when nothing says.
    public var laptopMode: Bool?
    /// Findings made and not yet taken.
    public private(set) var findings: [Finding] = []

    public init(displayMatrix: MountMatrix? = nil) {
        self.displayMatrix = displayMatrix
    }

    /// The problems of a mount matrix that no sensor soldered along the panel's axes can have: not one ±1 in every row
    /// and column (a duplicated axis, a scaled one, a zero row). Nil when it is a signed permutation.
    public static func problem(with matrix: MountMatrix) -> String? {
        if matrix.isSignedPermutation { return nil }
        let entries = matrix.entries
        for row in 0..<3 {
            for other in (row + 1)..<3 where entries[row].map(abs) == entries[other].map(abs) {
                return "the mount matrix \(matrix) reads the same raw axis in rows \(row + 1) and \(other + 1): "
                    + "two of its axes are one; run 'orientd calibrate'"
            }
        }
        if abs(matrix.determinant) < 1e-9 {
            return
                "the mount matrix \(matrix) cannot be inverted (its rows are not independent); run 'orientd calibrate'"
        }
        return "the mount matrix \(matrix) is not a signed permutation (one ±1 in each row and column): "
            + "a sensor mounted along the panel's axes never needs one; run 'orientd calibrate'"
    }

    /// Whether findings wait to be taken (no allocation: for the hot path).
    public var hasFindings: Bool { !findings.isEmpty }

    /// Takes the findings made so far.
    public mutating func takeFindings() -> [Finding] {
        defer { findings.removeAll(keepingCapacity: true) }
        return findings
    }

    /// A calibrated reading of `sensor` at `time`.
    public mutating func update(_ sample: Sample, from sensor: CalibratedSensor) {
        switch sensor {
        case .display:
            let dt = display.update(sample)
            guard display.still, let dt else { return }
            checkDisplay(at: sample.time, dt: dt)
        case .base:
            _ = base.update(sample)
        }
    }

    private mutating func checkDisplay(at time: Double, dt: Double) {
        let d = display.mean
        let g = Self.g
        if base.still, abs(base.time - time) < 0.5 {
            let b = base.mean
            if abs(b.x) > 0.6 * g {
                let (index, value) = d.dominantAxis
                if abs(value - b.x) < 0.3 * g || abs(value + b.x) < 0.3 * g, abs(value) > 0.5 * g {
                    let same = (value > 0) == (b.x > 0)
                    hingeVotes[index * 2 + (same ? 0 : 1)] += dt
                }
            }
            if abs(d.x - b.x) > 0.35 * g {
                hingeTime += dt
                hingeSums.display += abs(d.x) * dt
                hingeSums.base += abs(b.x) * dt
                if hingeTime >= hingeSeconds { hingeAxis(d, b, at: time) }
            }
            // The base face up (keyboard up, systemd's frame): the lid can only stand upright-ish.
            if b.z <= -0.85 * g {
                notUpright(d, at: time, dt: dt, limit: baseFlatSeconds, why: "with the base lying flat")
            }
            if baseEntryMayBeOldFrame, b.z >= 0.85 * g, Self.pointsDown(d) == true {
                oldFrame(d, b, at: time, dt: dt)
            }
            return
        }
        if base.samples == 0, laptopMode == true {
            notUpright(d, at: time, dt: dt, limit: laptopSeconds, why: "in laptop mode for minutes")
        }
    }

    /// The finding of a sustained disagreement on the hinge axis. The one whose hinge-axis reading is larger, on average
    /// over the time of disagreement, is the suspect: in use the hinge is rarely upright, so an axis that reads it large
    /// is another axis. Readings alike in size and opposite in sign (within 0.1 g on average) are one sensor's x axis
    /// reflected, and nothing in them tells which: both are named, rather than the one that noise or the sample rate
    /// happened to make a little larger.
    private mutating func hingeAxis(_ d: Vector3, _ b: Vector3, at time: Double) {
        guard !reported.contains(Finding.Kind.hingeAxis.rawValue) else { return }
        reported.insert(Finding.Kind.hingeAxis.rawValue)
        let gap = (hingeSums.display - hingeSums.base) / hingeTime
        let seen = "(x \(Self.decimal(d.x)) and \(Self.decimal(b.x)) m/s², which a rigid machine reads alike)"
        guard abs(gap) < 0.1 * Self.g else {
            let suspect: CalibratedSensor = gap > 0 ? .display : .base
            findings.append(
                Finding(
                    time: time,
                    sensor: suspect,
                    kind: .hingeAxis,
                    text: "the display and base accelerometers disagree on the hinge axis while the machine is still "
                        + "\(seen): the \(suspect.rawValue) accelerometer's mount matrix cannot be right; "
                        + "run 'orientd calibrate'",
                    suggested: nil
                )
            )
            return
        }
        for (sensor, other) in [(CalibratedSensor.display, CalibratedSensor.base), (.base, .display)] {
            findings.append(
                Finding(
                    time: time,
                    sensor: sensor,
                    kind: .hingeAxis,
                    text: "the display and base accelerometers read the hinge axis reversed while the machine is "
                        + "still \(seen): the \(sensor.rawValue) or the \(other.rawValue) accelerometer's mount "
                        + "matrix has its x axis reflected, and the readings cannot tell which; run 'orientd "
                        + "calibrate', which checks both",
                    suggested: nil
                )
            )
        }
    }

    /// Whether the display's reading in its plane points down (−y) within 45°; nil while that reading is too small
    /// to tell (under half of g: the display lies nearly flat).
    private static func pointsDown(_ d: Vector3) -> Bool? {
        let inPlane = (d.x * d.x + d.y * d.y).squareRoot()
        guard inPlane >= 0.5 * g else { return nil }
        return -d.y >= inPlane * 0.707
    }

    /// Time counts while a display stands upright over a base read keyboard down through an entry of the old frame.
    private mutating func oldFrame(_ d: Vector3, _ b: Vector3, at time: Double, dt: Double) {
        oldFrameTime += dt
        guard oldFrameTime >= oldFrameSeconds else { return }
        report(
            Finding(
                time: time,
                sensor: .base,
                kind: .oldBaseFrame,
                text: "the base accelerometer reads keyboard down (z \(Self.decimal(b.z)) m/s²) under a display "
                    + "standing upright (y \(Self.decimal(d.y)) m/s²), and its hwdb entry was written by an "
                    + "'orientd calibrate' from before systemd's frame (lid closed) was used: the hinge angle is "
                    + "off by 180° and a laptop is taken for a tablet; run 'orientd calibrate' again, which "
                    + "replaces that entry",
                suggested: nil
            )
        )
    }

    /// Time counts while the display's reading in its plane is large and points elsewhere than down.
    private mutating func notUpright(_ d: Vector3, at time: Double, dt: Double, limit: Double, why: String) {
        guard Self.pointsDown(d) == false else { return }
        laptopTime += dt
        sideways.x += d.x * dt
        sideways.y += d.y * dt
        guard laptopTime >= limit else { return }
        let direction =
            abs(sideways.x) > abs(sideways.y) ? (sideways.x > 0 ? "left edge up" : "right edge up") : "upside down"
        report(
            Finding(
                time: time,
                sensor: .display,
                kind: .notUpright,
                text: "the display reads \(direction) (x \(Self.decimal(d.x)), y \(Self.decimal(d.y)) m/s²) \(why), "
                    + "where it can only stand upright: its mount matrix cannot be right; run 'orientd calibrate'",
                suggested: suggestion()
            )
        )
    }

    /// The rotation about the panel's normal that turns the direction seen into upright, applied after the matrix,
    /// when the hinge axis was seen too and that rotation also puts it back on x; nil when the evidence does not
    /// determine the matrix (a reflection turns "down" back just as well).
    private func suggestion() -> MountMatrix? {
        let rotation: [[Double]]
        if abs(sideways.x) > abs(sideways.y) {
            rotation = sideways.x > 0 ? [[0, 1, 0], [-1, 0, 0], [0, 0, 1]] : [[0, -1, 0], [1, 0, 0], [0, 0, 1]]
        } else {
            rotation = [[-1, 0, 0], [0, -1, 0], [0, 0, 1]]
        }
        guard let best = hingeVotes.indices.max(by: { hingeVotes[$0] < hingeVotes[$1] }), hingeVotes[best] >= 1 else {
            return nil
        }
        // Where the true x axis reads now, turned by the rotation, must be +x.
        let axis = best / 2
        let sign: Double = best % 2 == 0 ? 1 : -1
        guard rotation[0][axis] * sign > 0.5 else { return nil }
        let current = (displayMatrix ?? .identity).entries
        guard let product = try? MountMatrix(Matrix3(rows: rotation).multiplied(by: Matrix3(rows: current)).entries)
        else { return nil }
        return product
    }

    private mutating func report(_ finding: Finding) {
        let key = "\(finding.sensor.rawValue) \(finding.kind.rawValue)"
        guard !reported.contains(key) else { return }
        reported.insert(key)
        findings.append(finding)
    }

    private static func decimal(_ value: Double) -> String {
        CalibrationSession.decimal(value)
    }
}

/// Whether one accelerometer is still: a slow mean and how far each sample is from it.
private struct StillFilter: Sendable {
    private var filter = LowPassFilter()
    /// The slow mean (τ 0.5 s) of the readings.
    var mean: Vector3 { filter.value }
    private(set) var time = -Double.infinity
    private(set) var samples = 0
    private var quietSince = Double.infinity
    /// Whether the readings have stayed near their mean for half a second, near 1 g.
    private(set) var still = false

    /// Adds a sample; returns the time since the previous one (nil for the first, or after a gap).
    mutating func update(_ sample: Sample) -> Double? {
        let a = sample.acceleration
        let dt = sample.time - time
        samples += 1
        time = sample.time
        guard dt > 0, dt <= 1 else {
            filter.value = a
            quietSince = sample.time
            still = false
            return nil
        }
        filter.update(toward: a, weight: LowPassFilter.weight(dt: dt, timeConstant: 0.5))
        let g = 9.806_65
        if a.minus(mean).magnitude > 0.08 * g || abs(a.magnitude - g) > 0.12 * g {
            quietSince = sample.time
        }
        still = sample.time - quietSince >= 0.5
        return dt
    }
}
