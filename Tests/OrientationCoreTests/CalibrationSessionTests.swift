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

/// Mount matrices of real machines (systemd's 60-sensor.hwdb), rotations and reflections.
let knownMountMatrices = [
    "1, 0, 0; 0, 1, 0; 0, 0, 1",
    "0, -1, 0; 1, 0, 0; 0, 0, 1",
    "0, 1, 0; 1, 0, 0; 0, 0, 1",  // Chuwi Hi10 X: a reflection
    "-1, 0, 0; 0, 1, 0; 0, 0, 1",
    "0, -1, 0; -1, 0, 0; 0, 0, -1",
    "0, -1, 0; 0, 0, -1; 1, 0, 0",
    "-1, 0, 0; 0, -1, 0; 0, 0, -1",
]

/// A device with a hidden mount matrix: the raw reading of a pose is M⁻¹ · direction · g (Mᵀ for a signed
/// permutation), with a little tilt and noise.
struct HiddenMounting {
    var matrix: MountMatrix
    var gravity = 9.80665
    private var seed: UInt64

    init(_ text: String, seed: UInt64 = 1) throws {
        matrix = try MountMatrix(parsing: text)
        self.seed = seed
    }

    /// A pseudo-random number in [−1, 1].
    mutating func noise() -> Double {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(Int64(bitPattern: seed >> 11) % 2_000_001) / 1_000_000 - 1
    }

    /// The raw reading of the calibrated `direction` (in g), plus `tilt` and noise (in g).
    mutating func raw(_ direction: Vector3, tilt: Vector3 = .zero, noise amount: Double = 0.01) -> Vector3 {
        let d = Vector3(x: direction.x + tilt.x, y: direction.y + tilt.y, z: direction.z + tilt.z)
        let rows = matrix.entries
        // Mᵀ · d.
        let raw = Vector3(
            x: rows[0][0] * d.x + rows[1][0] * d.y + rows[2][0] * d.z,
            y: rows[0][1] * d.x + rows[1][1] * d.y + rows[2][1] * d.z,
            z: rows[0][2] * d.x + rows[1][2] * d.y + rows[2][2] * d.z
        )
        return Vector3(
            x: (raw.x + amount * noise()) * gravity,
            y: (raw.y + amount * noise()) * gravity,
            z: (raw.z + amount * noise()) * gravity
        )
    }
}

/// Plays poses into a session at 20 Hz: moving first, then held.
struct PosePlayer {
    var session: CalibrationSession
    var time = 0.0
    var events: [CalibrationSession.Event] = []

    /// Holds `sensors` at their readings for `seconds`, the others as `others` says.
    mutating func hold(_ readings: [CalibratedSensor: () -> Vector3], seconds: Double = 2) {
        let end = time + seconds
        while time < end {
            for (sensor, reading) in readings.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                if let event = session.add(reading(), of: sensor, at: time) { events.append(event) }
            }
            time += 0.05
        }
    }

    /// A shake between poses: readings far apart.
    mutating func shake(_ sensors: [CalibratedSensor]) {
        for index in 0..<6 {
            for sensor in sensors {
                let value = index % 2 == 0 ? 15.0 : -4.0
                if let event = session.add(Vector3(x: value, y: 3, z: -value), of: sensor, at: time) {
                    events.append(event)
                }
            }
            time += 0.05
        }
    }
}

@Suite struct CalibrationSessionTests {
    @Test(arguments: knownMountMatrices)
    func oneAccelerometerGivesItsHiddenMatrix(text: String) throws {
        var device = try HiddenMounting(text)
        var player = PosePlayer(session: CalibrationSession(plan: CalibrationPlan(withBase: false), gravity: 9.80665))
        for (index, step) in player.session.plan.steps.enumerated() {
            player.shake([.display])
            let direction = try #require(step.display)
            // A hand holds it a few degrees off the pose.
            player.hold([.display: { device.raw(direction, tilt: Vector3(x: 0.05, y: -0.04, z: 0.03)) }])
            #expect(player.session.current == index + 1, "\(player.events)")
        }
        guard case .finished(let outcome, _) = player.events.last else {
            Issue.record("not finished: \(player.events)")
            return
        }
        #expect(outcome.matrices[.display] == device.matrix)
        #expect(outcome.matrices[.display]?.isSignedPermutation == true)
        #expect(player.events.count == 3)
    }

    @Test(arguments: [
        ("0, -1, 0; 1, 0, 0; 0, 0, 1", "0, 1, 0; 1, 0, 0; 0, 0, 1"),
        ("1, 0, 0; 0, 1, 0; 0, 0, 1", "-1, 0, 0; 0, -1, 0; 0, 0, 1"),
        ("0, 1, 0; -1, 0, 0; 0, 0, -1", "1, 0, 0; 0, 0, 1; 0, -1, 0"),
    ])
    func aConvertibleGivesBothHiddenMatrices(displayText: String, baseText: String) throws {
        var display = try HiddenMounting(displayText, seed: 3)
        var base = try HiddenMounting(baseText, seed: 7)
        var player = PosePlayer(session: CalibrationSession(plan: CalibrationPlan(withBase: true), gravity: 9.80665))
        #expect(player.session.plan.steps.count == 5)
        for (index, step) in player.session.plan.steps.enumerated() {
            player.shake([.display, .base])
            // A sensor the step does not use reads whatever the machine's hinge makes it: here, a leaning lid.
            let displayDirection = step.display ?? Vector3(x: 0, y: -0.6, z: 0.8)
            let baseDirection = step.base ?? Vector3(x: 0, y: 0.5, z: 0.866)
            player.hold([.display: { display.raw(displayDirection) }, .base: { base.raw(baseDirection) }])
            #expect(player.session.current == index + 1, "\(player.events)")
        }
        guard case .finished(let outcome, _) = player.events.last else {
            Issue.record("not finished: \(player.events)")
            return
        }
        #expect(outcome.matrices[.display] == display.matrix)
        #expect(outcome.matrices[.base] == base.matrix)
    }

    @Test func aPoseOnAnAxisAlreadyReadIsRefusedAndAskedAgain() throws {
        var device = try HiddenMounting("0, -1, 0; 1, 0, 0; 0, 0, 1")
        var player = PosePlayer(session: CalibrationSession(plan: CalibrationPlan(withBase: false), gravity: 9.80665))
        player.hold([.display: { device.raw(Vector3(x: 0, y: 0, z: 1)) }])
        player.shake([.display])
        // Face down instead of upright: the same raw axis as step 1.
        player.hold([.display: { device.raw(Vector3(x: 0, y: 0, z: -1)) }])
        #expect(player.session.current == 1)
        guard case .refused(let index, let why) = player.events.last else {
            Issue.record("not refused: \(player.events)")
            return
        }
        #expect(index == 1)
        #expect(why.contains("same axis as in step 1"), "\(why)")
        // Held on: refused once, not again and again.
        player.hold([.display: { device.raw(Vector3(x: 0, y: 0, z: -1)) }], seconds: 5)
        #expect(player.events.count == 2, "\(player.events)")
        player.shake([.display])
        player.hold([.display: { device.raw(Vector3(x: 0, y: -1, z: 0)) }])
        #expect(player.session.current == 2)
    }

    @Test func aReadingFarFromOneGIsRefused() throws {
        var device = try HiddenMounting("1, 0, 0; 0, 1, 0; 0, 0, 1")
        var player = PosePlayer(session: CalibrationSession(plan: CalibrationPlan(withBase: false), gravity: 9.80665))
        player.hold([.display: { device.raw(Vector3(x: 0, y: 0, z: 1.4)) }])
        guard case .refused(0, let why) = player.events.last else {
            Issue.record("not refused: \(player.events)")
            return
        }
        #expect(why.contains("far from 1 g"), "\(why)")
        #expect(player.session.current == 0)
    }

    @Test func aPoseBetweenAxesIsRefused() throws {
        var device = try HiddenMounting("1, 0, 0; 0, 1, 0; 0, 0, 1")
        var player = PosePlayer(session: CalibrationSession(plan: CalibrationPlan(withBase: false), gravity: 9.80665))
        player.hold([.display: { device.raw(Vector3(x: 0, y: 0.707, z: 0.707)) }])
        guard case .refused(0, let why) = player.events.last else {
            Issue.record("not refused: \(player.events)")
            return
        }
        #expect(why.contains("45°"), "\(why)")
    }

    /// Turned slowly while "held": every reading near the mean of the run, the mean drifting; refused.
    @Test func aSlowTurnWhileHeldIsRefused() throws {
        var session = CalibrationSession(plan: CalibrationPlan(withBase: false), gravity: 9.80665)
        var events: [CalibrationSession.Event] = []
        var angle = 0.0
        for tick in 0..<40 {
            // 0.25° a tick: 10° in 2 s, 0.04 g a tick from the previous reading.
            angle += 0.25
            let radians = angle * Double.pi / 180
            let reading = Vector3(x: 0, y: -9.80665 * radians, z: 9.80665 * (1 - radians * radians / 2))
            if let event = session.add(reading, of: .display, at: Double(tick) * 0.05) { events.append(event) }
        }
        guard case .refused(0, let why) = events.first else {
            Issue.record("not refused: \(events)")
            return
        }
        #expect(why.contains("moved while it was held"), "\(why)")
    }

    @Test func aMovingDeviceIsNeverTaken() throws {
        var player = PosePlayer(session: CalibrationSession(plan: CalibrationPlan(withBase: false), gravity: 9.80665))
        for _ in 0..<40 { player.shake([.display]) }
        #expect(player.events.isEmpty)
        #expect(player.session.progress < 0.5)
        #expect(player.session.current == 0)
    }

    @Test func theSamePoseHeldOnIsNotTakenForTheNextStep() throws {
        var device = try HiddenMounting("1, 0, 0; 0, 1, 0; 0, 0, 1")
        var player = PosePlayer(session: CalibrationSession(plan: CalibrationPlan(withBase: false), gravity: 9.80665))
        player.hold([.display: { device.raw(Vector3(x: 0, y: 0, z: 1)) }], seconds: 6)
        #expect(player.session.current == 1)
        #expect(player.events.count == 1)
        #expect(player.session.state(of: .display) == .notTurned)
    }

    @Test func rawCountsLearnGravityFromTheFirstPose() throws {
        var device = try HiddenMounting("0, 1, 0; 1, 0, 0; 0, 0, 1")
        device.gravity = 1024
        var player = PosePlayer(session: CalibrationSession(plan: CalibrationPlan(withBase: false), gravity: nil))
        for step in player.session.plan.steps {
            player.shake([.display])
            let direction = try #require(step.display)
            player.hold([.display: { device.raw(direction) }])
        }
        guard case .finished(let outcome, _) = player.events.last else {
            Issue.record("not finished: \(player.events)")
            return
        }
        #expect(outcome.matrices[.display] == device.matrix)
    }

    /// Readings that come seldom (through the daemon at its idle rate, 2 a second): a pose is taken only once it has
    /// enough readings for the drift check, not after the hold's 1.5 s alone.
    @Test func seldomReadingsTakeAPoseOnlyWithEnoughOfThem() throws {
        var device = try HiddenMounting("0, -1, 0; 1, 0, 0; 0, 0, 1")
        var session = CalibrationSession(plan: CalibrationPlan(withBase: false), gravity: 9.80665)
        var takenAt: Int?
        for reading in 1...12 {
            let event = session.add(device.raw(Vector3(x: 0, y: 0, z: 1)), of: .display, at: Double(reading) * 0.5)
            if case .held = event, takenAt == nil { takenAt = reading }
        }
        #expect(takenAt == PoseHold.fewestReadings)
    }

    @Test func progressGrowsWhileHeld() throws {
        var device = try HiddenMounting("1, 0, 0; 0, 1, 0; 0, 0, 1")
        var session = CalibrationSession(plan: CalibrationPlan(withBase: false), gravity: 9.80665)
        var fractions: [Double] = []
        for tick in 0..<25 {
            _ = session.add(device.raw(Vector3(x: 0, y: 0, z: 1)), of: .display, at: Double(tick) * 0.05)
            fractions.append(session.progress)
        }
        #expect(fractions == fractions.sorted())
        #expect(fractions[10] > 0.2 && fractions[10] < 0.5)
    }
}

@Suite struct MountMatrixFitTests {
    @Test(arguments: knownMountMatrices)
    func exactReadingsGiveTheMatrix(text: String) throws {
        let matrix = try MountMatrix(parsing: text)
        var device = try HiddenMounting(text)
        let expected = [Vector3(x: 0, y: 0, z: 1), Vector3(x: 0, y: -1, z: 0), Vector3(x: 1, y: 0, z: 0)]
        let raw = expected.map { device.raw($0, noise: 0) }
        #expect(MountMatrixFit.fit(raw: raw, expected: expected) == matrix)
    }

    @Test func aSensorMountedAtAnAngleIsNotSnapped() throws {
        // Turned 30° about z: not a signed permutation.
        let c = 0.866_025
        let s = 0.5
        let raw = [Vector3(x: 0, y: 0, z: 1), Vector3(x: s, y: -c, z: 0), Vector3(x: c, y: s, z: 0)]
        let expected = [Vector3(x: 0, y: 0, z: 1), Vector3(x: 0, y: -1, z: 0), Vector3(x: 1, y: 0, z: 0)]
        let matrix = try #require(MountMatrixFit.fit(raw: raw, expected: expected))
        #expect(!matrix.isSignedPermutation)
        #expect(abs(matrix.entries[0][0] - c) < 0.001)
    }

    @Test func readingsAlongOneAxisGiveNoMatrix() {
        let raw = [Vector3(x: 0, y: 0, z: 9.8), Vector3(x: 0, y: 0, z: -9.8), Vector3(x: 9.8, y: 0, z: 0)]
        let expected = [Vector3(x: 0, y: 0, z: 1), Vector3(x: 0, y: -1, z: 0), Vector3(x: 1, y: 0, z: 0)]
        #expect(MountMatrixFit.fit(raw: raw, expected: expected) == nil)
    }

    @Test(arguments: [
        ("0, 1, 0; 1, 0, 0; 0, 0, 1", true, -1.0),
        ("0, -1, 0; 1, 0, 0; 0, 0, 1", true, 1.0),
        ("1, 0, 0; 0, -1, 0; 1, 0, 0", false, 0.0),  // a duplicated axis, as in a hand-written entry
        ("1, 0, 0; 0, 1, 0; 0, 0, 2", false, 2.0),
        ("0.5, 0.5, 0; 0, 1, 0; 0, 0, 1", false, 0.5),
    ])
    func signedPermutations(text: String, isPermutation: Bool, determinant: Double) throws {
        let matrix = try MountMatrix(parsing: text)
        #expect(matrix.isSignedPermutation == isPermutation)
        #expect(abs(matrix.determinant - determinant) < 1e-9)
    }
}
