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

/// A generated two-accelerometer trace of a convertible in use, with the truth of every moment, for scoring the
/// hinge monitor. Made at test time from a seed; nothing is committed.
///
/// The base's reading is gravity turned by the base's pose (roll about the hinge, pitch of the hinge axis) plus
/// what the hands, the lap, typing or walking add; the display's is the base's turned about the hinge by the angle
/// minus 180° (ORIENTATION.md's hinge convention), plus its own wobble; each sensor adds noise and samples at its
/// own rate.
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
        /// The hinge angle, roll and pitch at the end of a move; a hold keeps the ones it starts with (the
        /// first segment's, for the start).
        var angle: Double
        var roll: Double
        var pitch: Double
        /// Whether the angle, roll and pitch move (a fold, a turn) or are held.
        var moves: Bool
        var activity: Activity

        /// Turning the lid or the machine to a new angle, roll and pitch.
        static func move(
            _ name: String,
            _ seconds: Double,
            angle: Double,
            roll: Double = 0,
            pitch: Double = 0,
            _ activity: Activity = .still
        ) -> Segment {
            Segment(
                name: name,
                seconds: seconds,
                angle: angle,
                roll: roll,
                pitch: pitch,
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
                angle: start?.angle ?? .nan,
                roll: start?.roll ?? .nan,
                pitch: start?.pitch ?? .nan,
                moves: false,
                activity: activity
            )
        }
    }

    /// One line of the trace with what was true then.
    struct Moment {
        var row: TraceRow
        var angle: Double
        /// Whether the monitor is meant to trust the angle now (``trustworthy(angle:pitch:activity:)``).
        var trusted: Bool
        var segment: Int
        /// Seconds since the segment began.
        var elapsed: Double
    }

    let segments: [Segment]
    let displayRate: Double
    let baseRate: Double
    let seed: UInt64

    static let g = HingeMonitor.gravity

    /// The everyday tour: laptop use, flat, tent, stand, folding into a tablet and back, carrying it closed and
    /// folded, and the book posture (hinge vertical).
    static func tour(displayRate: Double, baseRate: Double, seed: UInt64) -> ConvertibleScenario {
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
        return ConvertibleScenario(segments: segments, displayRate: displayRate, baseRate: baseRate, seed: seed)
    }

    /// Whether the hinge monitor is meant to trust the angle in this pose: the hinge axis at least 25° (here, with
    /// a margin, 30°) from vertical, the angle away from closed and folded, nobody walking.
    static func trustworthy(angle: Double, pitch: Double, activity: Segment.Activity) -> Bool {
        pitch.magnitude <= 60 && angle >= 15 && angle <= 345 && activity != .walking
    }

    /// The trace, one moment a line.
    func moments() -> [Moment] {
        var random = SplitMix64(seed: seed)
        var moments: [Moment] = []
        var start = (angle: segments[0].angle, roll: segments[0].roll, pitch: segments[0].pitch)
        var time = 0.0
        var nextDisplay = 0.0
        var nextBase = 0.0
        for (index, segment) in segments.enumerated() {
            let end = time + segment.seconds
            while min(nextDisplay, nextBase) < end {
                let now = min(nextDisplay, nextBase)
                let elapsed = now - time
                var (angle, roll, pitch) = start
                if segment.moves {
                    let progress = (1 - cos(Double.pi * elapsed / segment.seconds)) / 2
                    angle += (segment.angle - start.angle) * progress
                    roll += (segment.roll - start.roll) * progress
                    pitch += (segment.pitch - start.pitch) * progress
                }
                var linear = Vector3.zero
                var lidWobble = 0.0
                switch segment.activity {
                case .still:
                    // Hand tremor when moving, nothing when resting.
                    if segment.moves { roll += 0.4 * sin(2 * .pi * 9 * now) }
                case .typing:
                    linear.z += random.normal() * 0.12
                    lidWobble = 0.25 * sin(2 * .pi * 6 * now) + random.normal() * 0.1
                case .lap:
                    roll += 2.5 * sin(2 * .pi * 0.35 * now)
                    pitch += 1.5 * sin(2 * .pi * 0.23 * now + 1)
                    angle += 1.0 * sin(2 * .pi * 0.3 * now + 2)
                    linear.z += random.normal() * 0.15
                case .walking:
                    linear.z += 2.5 * sin(2 * .pi * 1.8 * now) + random.normal() * 0.6
                    linear.y += 1.2 * sin(2 * .pi * 0.9 * now) + random.normal() * 0.4
                    roll += 12 * sin(2 * .pi * 0.5 * now)
                }
                let r = roll * .pi / 180
                let p = pitch * .pi / 180
                let base = Vector3(
                    x: Self.g * sin(p) + linear.x,
                    y: Self.g * cos(p) * sin(r) + linear.y,
                    z: Self.g * cos(p) * cos(r) + linear.z
                )
                var row = TraceRow(time: now, display: nil, base: nil)
                if nextDisplay <= now {
                    let turned = Self.turn(base, by: angle + lidWobble - 180)
                    row.display = Vector3(
                        x: turned.x + random.normal() * 0.05,
                        y: turned.y + random.normal() * 0.05,
                        z: turned.z + random.normal() * 0.05
                    )
                    nextDisplay += 1 / displayRate
                }
                if nextBase <= now {
                    row.base = Vector3(
                        x: base.x + random.normal() * 0.05,
                        y: base.y + random.normal() * 0.05,
                        z: base.z + random.normal() * 0.05
                    )
                    nextBase += 1 / baseRate
                }
                let trusted = Self.trustworthy(angle: angle, pitch: pitch, activity: segment.activity)
                moments.append(
                    Moment(row: row, angle: angle, trusted: trusted, segment: index, elapsed: elapsed)
                )
            }
            time = end
            if segment.moves { start = (segment.angle, segment.roll, segment.pitch) }
        }
        return moments
    }

    /// The base's reading turned about the hinge (x) by `degrees`, the way the display's frame is turned.
    static func turn(_ v: Vector3, by degrees: Double) -> Vector3 {
        let phi = degrees * .pi / 180
        return Vector3(x: v.x, y: v.z * sin(phi) + v.y * cos(phi), z: v.z * cos(phi) - v.y * sin(phi))
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

extension SplitMix64 {
    /// A standard normal value (Box–Muller).
    mutating func normal() -> Double {
        let u = max((symmetric() + 1) / 2, 1e-12)
        return (-2 * log(u)).squareRoot() * cos(Double.pi * (symmetric() + 1))
    }
}
