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

import Glibc
import OrientationCore
import OrientdTestSupport

/// A generated two-accelerometer trace of a convertible in use, with the truth of every moment, for scoring the
/// hinge monitor. Made at test time from a seed; nothing is committed.
///
/// The machine is a rigid base with a lid on its hinge; each sensor sits at its own place on it (a ``Layout``).
/// Each segment moves the hinge angle and the base's pose (roll about the hinge, pitch of the hinge axis, yaw about
/// the vertical, spin about the base's normal) along a minimum-jerk path, turning the machine about a pivot. Each
/// sensor reads gravity plus its own acceleration — the second derivative of its place, so the centripetal and
/// tangential terms of every turn, fold, spin and sway — in its own frame, plus what the hands, the lap, typing or
/// walking add to both, plus noise, at its own rate (the base's clock may lag).
struct ConvertibleScenario {
    /// What the machine does in one stretch of time.
    struct Segment {
        enum Activity {
            /// Resting on a desk or held still.
            case still
            /// Typing on the base: small knocks on both halves.
            case typing
            /// On a lap: slow sway and small jolts.
            case lap
            /// Carried while walking.
            case walking
        }

        var name: String
        var seconds: Double
        /// The pose at the end of a move; a hold keeps the one it starts with (the first segment's, for the start).
        var pose: Pose
        /// Whether the pose moves (a fold, a turn) or is held.
        var moves: Bool
        var activity: Activity

        /// Turning the lid or the machine to a new pose.
        static func move(
            _ name: String,
            _ seconds: Double,
            angle: Double,
            roll: Double = 0,
            pitch: Double = 0,
            yaw: Double = 0,
            spin: Double = 0,
            _ activity: Activity = .still
        ) -> Segment {
            Segment(
                name: name,
                seconds: seconds,
                pose: Pose(angle: angle, roll: roll, pitch: pitch, yaw: yaw, spin: spin),
                moves: true,
                activity: activity
            )
        }

        /// Keeping the pose the previous segment left (or `start`, for the first).
        static func hold(
            _ name: String,
            _ seconds: Double,
            _ activity: Activity = .still,
            from start: (angle: Double, roll: Double, pitch: Double)? = nil
        ) -> Segment {
            Segment(
                name: name,
                seconds: seconds,
                pose: start.map { Pose(angle: $0.angle, roll: $0.roll, pitch: $0.pitch, yaw: 0, spin: 0) }
                    ?? Pose(angle: .nan, roll: .nan, pitch: .nan, yaw: .nan, spin: .nan),
                moves: false,
                activity: activity
            )
        }
    }

    /// The hinge angle and the base's attitude, degrees.
    struct Pose {
        var angle: Double
        /// About the hinge (x).
        var roll: Double
        /// The hinge axis raised from horizontal.
        var pitch: Double
        /// About the vertical (turned round on a table).
        var yaw: Double
        /// About the base's normal (z: a tablet turned from landscape to portrait in the hands).
        var spin: Double

        /// The base's frame in the world's (z up): yaw, then pitch, then roll, then spin, from the outside in.
        var base: Rotation { .z(yaw) * .y(-pitch) * .x(roll) * .z(spin) }

        /// The display's frame in the base's: turned about the hinge by the angle minus 180° (at 180° both alike).
        var lid: Rotation { .x(angle - 180) }

        func interpolated(to end: Pose, _ progress: Double) -> Pose {
            func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * progress }
            return Pose(
                angle: mix(angle, end.angle),
                roll: mix(roll, end.roll),
                pitch: mix(pitch, end.pitch),
                yaw: mix(yaw, end.yaw),
                spin: mix(spin, end.spin)
            )
        }
    }

    /// Where the sensors sit, metres: the base's in the base's frame (the hinge along x through the origin, the base
    /// towards +y), the display's in the display's frame (the lid towards −y from the hinge).
    struct Layout: CustomStringConvertible {
        var name: String
        var base: Vector3
        var display: Vector3

        var description: String { name }

        /// A 14-inch machine: the display's sensor at the top middle of the lid, the base's at the front right.
        static let topAndFrontCorner = Layout(
            name: "lid top, base front corner",
            base: Vector3(x: 0.13, y: 0.19, z: 0.008),
            display: Vector3(x: 0, y: -0.19, z: 0.004)
        )
        /// Both sensors near the hinge, at opposite ends.
        static let nearTheHinge = Layout(
            name: "near the hinge, opposite ends",
            base: Vector3(x: -0.14, y: 0.03, z: 0.008),
            display: Vector3(x: 0.14, y: -0.03, z: 0.004)
        )
        /// The display's at the top left of the lid, the base's in the middle of the base.
        static let lidCornerAndMiddle = Layout(
            name: "lid top corner, base middle",
            base: Vector3(x: 0, y: 0.11, z: 0.008),
            display: Vector3(x: -0.15, y: -0.2, z: 0.004)
        )
        static let all = [topAndFrontCorner, nearTheHinge, lidCornerAndMiddle]
    }

    /// One line of the trace with what was true then.
    struct Moment {
        var row: TraceRow
        var angle: Double
        /// Whether the monitor is meant to trust the angle now (``trustworthy(angle:axisElevation:activity:)``).
        var trusted: Bool
        var segment: Int
        /// Seconds since the segment began.
        var elapsed: Double
        /// Whether the machine turns while its hinge stays where it is.
        var turnsWhole: Bool
    }

    let segments: [Segment]
    let displayRate: Double
    let baseRate: Double
    /// How late the base's first sample is, seconds (its clock is its own).
    var baseDelay = 0.0
    var layout = Layout.topAndFrontCorner
    /// The point the machine turns about, in the base's frame, metres: the middle of the base (in the hands).
    var pivot = Vector3(x: 0, y: 0.11, z: 0)
    let seed: UInt64

    static let g = HingeMonitor.gravity

    init(
        segments: [Segment],
        displayRate: Double,
        baseRate: Double,
        baseDelay: Double = 0,
        layout: Layout = .topAndFrontCorner,
        pivot: Vector3 = Vector3(x: 0, y: 0.11, z: 0),
        seed: UInt64
    ) {
        self.segments = segments
        self.displayRate = displayRate
        self.baseRate = baseRate
        self.baseDelay = baseDelay
        self.layout = layout
        self.pivot = pivot
        self.seed = seed
    }

    /// The everyday tour: laptop use, flat, tent, stand, folding into a tablet and back, carrying it closed and
    /// folded, and the book posture (hinge vertical).
    static func tour(
        displayRate: Double,
        baseRate: Double,
        baseDelay: Double = 0,
        layout: Layout = .topAndFrontCorner,
        seed: UInt64
    ) -> ConvertibleScenario {
        let segments: [Segment] = [
            .hold("laptop on a desk, typing", 12, .typing, from: (110, 0, 0)),
            .move("lid opened wider", 0.8, angle: 130),
            .hold("on a lap", 12, .lap),
            .move("lid pulled back", 0.8, angle: 96, roll: 8, pitch: 4, .lap),
            .hold("on a lap, typing", 10, .typing),
            .move("opened flat", 1.2, angle: 180),
            .hold("flat on a table", 8),
            .move("into a tent", 1.5, angle: 300, roll: 120),
            .hold("tent", 10),
            .move("back to laptop", 1.5, angle: 115),
            .hold("laptop, typing", 6, .typing),
            .move("into a stand", 1.5, angle: 270, roll: 180),
            .hold("stand", 10),
            .move("folded into a tablet", 0.9, angle: 357, roll: -20, pitch: 10),
            .move("tablet in the hands, turned", 4, angle: 357, roll: -60, pitch: 40, .lap),
            .hold("tablet carried", 6, .walking),
            .move("unfolded to laptop", 0.9, angle: 115),
            .hold("laptop again, typing", 8, .typing),
            .move("closed", 0.8, angle: 2),
            .move("picked up closed", 0.8, angle: 2, roll: 30, pitch: 20),
            .hold("carried closed", 6, .walking),
            .move("opened", 1, angle: 110),
            .hold("laptop", 5),
            .move("raised like a book", 1.5, angle: 120, pitch: 85),
            .hold("read like a book", 8, .lap),
            .move("opened wide as a book", 1, angle: 250, pitch: 85),
            .hold("wide book", 5),
            .move("laid down", 1, angle: 250),
            .hold("stand on a table", 5),
            .move("raised as a book", 1.2, angle: 250, pitch: 85),
            .move("closed halfway as a book", 1.5, angle: 120, pitch: 85),
            .hold("book again", 5, .lap),
        ]
        return ConvertibleScenario(
            segments: segments,
            displayRate: displayRate,
            baseRate: baseRate,
            baseDelay: baseDelay,
            layout: layout,
            seed: seed
        )
    }

    /// A laptop folded into a tablet, held up in the hands, turned a quarter to portrait in `seconds` and back.
    static func foldedTabletTurnedToPortrait(
        seconds: Double,
        displayRate: Double,
        baseRate: Double,
        baseDelay: Double,
        layout: Layout,
        seed: UInt64
    ) -> ConvertibleScenario {
        let segments: [Segment] = [
            .hold("laptop, typing", 4, .typing, from: (110, 0, 0)),
            .move("folded into a tablet", 1, angle: 357, roll: -35),
            .hold("tablet held", 3),
            .move("turned to portrait", seconds, angle: 357, roll: -35, spin: 90),
            .hold("portrait", 3),
            .move("turned to landscape", seconds, angle: 357, roll: -35, spin: 0),
            .hold("landscape", 3),
            .move("turned to the other portrait", seconds, angle: 357, roll: -35, spin: -90),
            .hold("other portrait", 3),
        ]
        return ConvertibleScenario(
            segments: segments,
            displayRate: displayRate,
            baseRate: baseRate,
            baseDelay: baseDelay,
            layout: layout,
            seed: seed
        )
    }

    /// A laptop folded into a tablet in `seconds`, its base resting on a table, or picked up and tilted towards the
    /// user as it folds (`inTheHands`).
    static func folded(
        seconds: Double,
        inTheHands: Bool,
        displayRate: Double,
        baseRate: Double,
        baseDelay: Double,
        layout: Layout,
        seed: UInt64
    ) -> ConvertibleScenario {
        let segments: [Segment] = [
            .hold("laptop, typing", 4, .typing, from: (110, 0, 0)),
            .move("folded into a tablet", seconds, angle: 358, roll: inTheHands ? -30 : 0, pitch: inTheHands ? 10 : 0),
            .hold("tablet", 3),
        ]
        return ConvertibleScenario(
            segments: segments,
            displayRate: displayRate,
            baseRate: baseRate,
            baseDelay: baseDelay,
            layout: layout,
            seed: seed
        )
    }

    /// A laptop resting on a table, opened at 110° (nobody types), then folded into a tent (the lid turned over to
    /// 300°, the machine resting on the two edges) in 1.5 s, and left so.
    static func laptopOnATableFoldedIntoATent(
        displayRate: Double,
        baseRate: Double,
        baseDelay: Double,
        layout: Layout,
        seed: UInt64
    ) -> ConvertibleScenario {
        let segments: [Segment] = [
            .hold("laptop on a table", 5, .still, from: (110, 0, 0)),
            .move("folded into a tent", 1.5, angle: 300, roll: -60),
            .hold("tent", 3),
        ]
        return ConvertibleScenario(
            segments: segments,
            displayRate: displayRate,
            baseRate: baseRate,
            baseDelay: baseDelay,
            layout: layout,
            seed: seed
        )
    }

    /// A laptop on a lap, opened at 160°, folded into a tent at 280° in two turns: a third of the way, a pause of
    /// `pause` seconds (the hands shift their grip; the angle may be trusted meanwhile), then the rest, the whole
    /// fold taking `seconds` without the pause; left so.
    static func foldedIntoATentInTwoTurns(
        seconds: Double,
        pause: Double,
        displayRate: Double,
        baseRate: Double,
        layout: Layout,
        seed: UInt64
    ) -> ConvertibleScenario {
        let segments: [Segment] = [
            .hold("laptop on a lap", 1.5, .lap, from: (160, 0, 0)),
            .move("first turn", seconds * 0.3, angle: 196, roll: -15, .lap),
            .hold("the grip shifted", pause, .lap),
            .move("second turn", seconds * 0.7, angle: 280, roll: -50, .lap),
            .hold("tent", 4),
        ]
        return ConvertibleScenario(
            segments: segments,
            displayRate: displayRate,
            baseRate: baseRate,
            layout: layout,
            seed: seed
        )
    }

    /// A laptop opened flat on a table and turned round on it (about the middle of the machine) in `seconds`, to
    /// show the screen across the table, and back.
    static func flatLaptopTurnedRoundOnATable(
        seconds: Double,
        displayRate: Double,
        baseRate: Double,
        baseDelay: Double,
        layout: Layout,
        seed: UInt64
    ) -> ConvertibleScenario {
        let segments: [Segment] = [
            .hold("laptop, typing", 4, .typing, from: (110, 0, 0)),
            .move("opened flat", 1.2, angle: 180),
            .hold("flat on a table", 3),
            .move("turned round", seconds, angle: 180, yaw: 180),
            .hold("shown across the table", 3),
            .move("turned back", seconds, angle: 180, yaw: 0),
            .hold("flat again", 3),
            .move("turned round the other way", seconds, angle: 180, yaw: -180),
            .hold("shown again", 3),
        ]
        return ConvertibleScenario(
            segments: segments,
            displayRate: displayRate,
            baseRate: baseRate,
            baseDelay: baseDelay,
            layout: layout,
            pivot: Vector3(x: 0, y: 0.01, z: 0),
            seed: seed
        )
    }

    /// Whether the hinge monitor is meant to trust the angle in this pose: the hinge axis at most 60° from
    /// horizontal (the monitor needs 65°), the angle well inside its trusted range, nobody walking.
    static func trustworthy(angle: Double, axisElevation: Double, activity: Segment.Activity) -> Bool {
        axisElevation.magnitude <= 60 && angle >= 25 && angle <= 335 && activity != .walking
    }

    /// The pose at `now`, `elapsed` into a segment that starts from `start`: the path of a move (minimum jerk) and
    /// the sway of the activity (smooth, so that it has an acceleration).
    private static func pose(
        of segment: Segment,
        from start: Pose,
        elapsed: Double,
        at now: Double
    ) -> Pose {
        var pose = start
        if segment.moves {
            let s = min(max(elapsed / segment.seconds, 0), 1)
            pose = start.interpolated(to: segment.pose, s * s * s * (10 - 15 * s + 6 * s * s))
        }
        switch segment.activity {
        case .still:
            // Hand tremor when moving, nothing when resting.
            if segment.moves { pose.roll += 0.08 * sin(2 * .pi * 9 * now) }
        case .typing:
            // The lid shaken by the keys: 0.1° at 6 Hz, about 0.05 g at the top of the lid.
            pose.angle += 0.1 * sin(2 * .pi * 6 * now)
        case .lap:
            pose.roll += 2.5 * sin(2 * .pi * 0.35 * now)
            pose.pitch += 1.5 * sin(2 * .pi * 0.23 * now + 1)
            pose.angle += 1.0 * sin(2 * .pi * 0.3 * now + 2)
        case .walking:
            pose.roll += 12 * sin(2 * .pi * 0.5 * now)
        }
        return pose
    }

    /// Where a sensor is in the world at a pose, metres: `place` in the base's frame (after the lid's turn, for the
    /// display's), the pivot fixed.
    private func world(_ place: Vector3, at pose: Pose) -> Vector3 {
        pose.base.apply(Vector3(x: place.x - pivot.x, y: place.y - pivot.y, z: place.z - pivot.z))
    }

    /// The acceleration of a sensor in the world, m/s², from its places a millisecond apart.
    private func acceleration(of sensor: HingeMonitor.Sensor, _ poseAt: (Double) -> Pose, at now: Double) -> Vector3 {
        let h = 1e-3
        func place(_ t: Double) -> Vector3 {
            let pose = poseAt(t)
            switch sensor {
            case .base: return world(layout.base, at: pose)
            case .display: return world(pose.lid.apply(layout.display), at: pose)
            }
        }
        let before = place(now - h)
        let here = place(now)
        let after = place(now + h)
        return Vector3(
            x: (after.x - 2 * here.x + before.x) / (h * h),
            y: (after.y - 2 * here.y + before.y) / (h * h),
            z: (after.z - 2 * here.z + before.z) / (h * h)
        )
    }

    /// The trace, one moment a line.
    func moments() -> [Moment] {
        var random = SeededGenerator(seed: seed)
        var moments: [Moment] = []
        let first = segments[0].pose
        var start = Pose(angle: first.angle, roll: first.roll, pitch: first.pitch, yaw: 0, spin: 0)
        var time = 0.0
        var nextDisplay = 0.0
        var nextBase = baseDelay
        for (index, segment) in segments.enumerated() {
            let end = time + segment.seconds
            let segmentStart = time
            let from = start
            let poseAt = { (t: Double) in Self.pose(of: segment, from: from, elapsed: t - segmentStart, at: t) }
            while min(nextDisplay, nextBase) < end {
                let now = min(nextDisplay, nextBase)
                let pose = poseAt(now)
                // What the hands, the lap, typing or walking add to both sensors alike (in the base's frame).
                var linear = Vector3.zero
                var lidWobble = 0.0
                switch segment.activity {
                case .still: break
                case .typing:
                    linear.z += random.normal() * 0.12
                    lidWobble = random.normal() * 0.1
                case .lap:
                    linear.z += random.normal() * 0.15
                case .walking:
                    linear.z += 2.5 * sin(2 * .pi * 1.8 * now) + random.normal() * 0.6
                    linear.y += 1.2 * sin(2 * .pi * 0.9 * now) + random.normal() * 0.4
                }
                let up = Vector3(x: 0, y: 0, z: Self.g)
                var row = TraceRow(time: now, display: nil, base: nil)
                if nextDisplay <= now {
                    let a = acceleration(of: .display, poseAt, at: now)
                    let inBase = pose.base.applyInverse(Vector3(x: a.x + up.x, y: a.y + up.y, z: a.z + up.z))
                    let force = Vector3(x: inBase.x + linear.x, y: inBase.y + linear.y, z: inBase.z + linear.z)
                    let reading = Rotation.x(pose.angle + lidWobble - 180).applyInverse(force)
                    row.display = Vector3(
                        x: reading.x + random.normal() * 0.05,
                        y: reading.y + random.normal() * 0.05,
                        z: reading.z + random.normal() * 0.05
                    )
                    nextDisplay += 1 / displayRate
                }
                if nextBase <= now {
                    let a = acceleration(of: .base, poseAt, at: now)
                    let reading = pose.base.applyInverse(Vector3(x: a.x + up.x, y: a.y + up.y, z: a.z + up.z))
                    // In systemd's frame: what the display reads with the lid closed, the base's physical frame
                    // turned half about the hinge (a flat base, keyboard up, reads (0, 0, −g)).
                    row.base = Vector3(
                        x: reading.x + linear.x + random.normal() * 0.05,
                        y: -(reading.y + linear.y) + random.normal() * 0.05,
                        z: -(reading.z + linear.z) + random.normal() * 0.05
                    )
                    nextBase += 1 / baseRate
                }
                let axis = pose.base.apply(Vector3(x: 1, y: 0, z: 0))
                let elevation = asin(min(max(axis.z, -1), 1)) * 180 / .pi
                let trusted = Self.trustworthy(angle: pose.angle, axisElevation: elevation, activity: segment.activity)
                moments.append(
                    Moment(
                        row: row,
                        angle: pose.angle,
                        trusted: trusted,
                        segment: index,
                        elapsed: now - segmentStart,
                        turnsWhole: segment.moves && segment.pose.angle == from.angle
                    )
                )
            }
            time = end
            if segment.moves { start = segment.pose }
        }
        return moments
    }

    /// The trace text, as `orientd record` writes a two-sensor trace.
    func text() -> String {
        var lines = ["# orientd-trace 1", "# rate_hz=\(displayRate)", "t,x,y,z,bx,by,bz"]
        for moment in moments() {
            let display = moment.row.display.map { "\($0.x),\($0.y),\($0.z)" } ?? ",,"
            let base = moment.row.base.map { "\($0.x),\($0.y),\($0.z)" } ?? ",,"
            lines.append("\(moment.row.time),\(display),\(base)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension SeededGenerator {
    /// A standard normal value (Box–Muller).
    mutating func normal() -> Double {
        let u = max((symmetric() + 1) / 2, 1e-12)
        return (-2 * log(u)).squareRoot() * cos(Double.pi * (symmetric() + 1))
    }
}
