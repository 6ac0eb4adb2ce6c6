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

/// Whether an accelerometer is being held still, and for how long: the run of readings since the last one that
/// strayed from the run's mean.
public struct PoseHold: Sendable {
    /// What the readings show.
    public enum State: Sendable, Equatable {
        /// No reading yet.
        case waiting
        /// Moving: no still run has begun.
        case moving
        /// Still at a reading that was already taken (or refused): the person has not turned it yet.
        case notTurned
        /// Still for `fraction` of the time a pose must be held (0 ≤ fraction < 1).
        case holding(fraction: Double)
        /// Held still long enough: `mean` is the pose's reading.
        case held(mean: Vector3)
    }

    /// Seconds a pose must be held still.
    public var holdSeconds: Double
    /// The largest distance, in g, of a reading from the run's mean that still counts as still (hand tremor, noise).
    public var stillTolerance: Double
    /// The angle within which a still reading is the same pose as one already taken, as its cosine.
    public var samePoseCosine: Double
    /// The size of gravity in the readings' unit, once known; nil until then (each run's own magnitude is used).
    public var gravity: Double?

    private var sum = Vector3.zero
    private var count = 0
    /// The sum of the run's first readings, to tell a slow drift (each reading near the mean, the mean moving).
    private var firstSum = Vector3.zero
    private static let firstCount = 5
    /// The fewest readings a held pose is made of, so that the drift check has readings after the first ones even when
    /// they come seldom (through the daemon while the machine is still, at its idle rate).
    public static let fewestReadings = 8
    private var start = 0.0
    private var last = 0.0
    private var avoided: [Vector3] = []
    private var refused: Vector3?

    /// The latest reading.
    public private(set) var latest: Vector3?

    public init(holdSeconds: Double = 1.5, stillTolerance: Double = 0.08, samePoseDegrees: Double = 35) {
        self.holdSeconds = holdSeconds
        self.stillTolerance = stillTolerance
        samePoseCosine = Trigonometry.cosine(degrees: samePoseDegrees)
    }

    /// The run's mean.
    public var mean: Vector3? { count == 0 ? nil : sum.scaled(by: 1 / Double(count)) }

    /// How far, in the readings' unit, the run's mean moved from its first readings' mean: a machine turned slowly
    /// while "held" (each reading near the mean, the mean drifting).
    public var drift: Double {
        guard let mean, count > Self.firstCount else { return 0 }
        return firstSum.scaled(by: 1 / Double(Self.firstCount)).minus(mean).magnitude
    }

    /// Readings near this pose, already taken, are not taken again: the next pose is another one.
    public mutating func avoid(_ reading: Vector3) {
        avoided.append(reading)
    }

    /// A refused pose is not taken again until the readings move (the person adjusts it).
    public mutating func refuse(_ reading: Vector3) {
        refused = reading
        restart()
    }

    /// Starts a new run (after a pose was taken or refused).
    public mutating func restart() {
        sum = .zero
        count = 0
    }

    /// Adds a reading at `time` seconds.
    public mutating func add(_ reading: Vector3, at time: Double) {
        latest = reading
        if let mean, time >= last, time - last <= 1 {
            let scale = gravity ?? mean.magnitude
            if reading.minus(mean).magnitude <= stillTolerance * scale {
                sum = Vector3(x: sum.x + reading.x, y: sum.y + reading.y, z: sum.z + reading.z)
                count += 1
                if count <= Self.firstCount {
                    firstSum = Vector3(x: firstSum.x + reading.x, y: firstSum.y + reading.y, z: firstSum.z + reading.z)
                }
                last = time
                return
            }
        }
        if count > 0 { refused = nil }
        sum = reading
        firstSum = reading
        count = 1
        start = time
        last = time
    }

    /// What the readings show now.
    public var state: State {
        guard let mean else { return latest == nil ? .waiting : .moving }
        let length = mean.magnitude
        if refused != nil { return .notTurned }
        if length > 0,
            avoided.contains(where: { $0.magnitude > 0 && $0.dot(mean) / ($0.magnitude * length) >= samePoseCosine })
        {
            return .notTurned
        }
        if count < 2 || last - start <= 0 { return count < 2 && latest != nil ? .holding(fraction: 0) : .moving }
        let fraction = min((last - start) / holdSeconds, Double(count) / Double(Self.fewestReadings))
        return fraction >= 1 ? .held(mean: mean) : .holding(fraction: fraction)
    }
}
