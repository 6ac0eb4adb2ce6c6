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
import SensorDevices
import Testing

/// Every entry of systemd's `hwdb.d/60-sensor.hwdb` that places an accelerometer in the base, with the display entry
/// of the same machine where there is one: what the machine's sensors read in each pose gives the true hinge angle
/// through the entries as udev gives them, and a calibration of the machine writes systemd's own entries.
@Suite struct SystemdBaseEntriesTests {
    struct Machine: CustomStringConvertible, Sendable {
        var name: String
        var driver: String
        /// The entries' `ACCEL_MOUNT_MATRIX`; nil where the entry sets none (or the machine has no display entry).
        var display: String?
        var base: String?
        /// How the sensors' raw axes turn into orientd's frames, where that is not the entry itself: ChromeOS's
        /// embedded controller reads Android's frame (the lid upright +y, on its back +z; the base flat +z).
        var displayTruth: String? = nil
        var baseTruth: String? = nil

        var description: String { name }
    }

    static let g = 9.806_65

    /// 60-sensor.hwdb's base entries (every `ACCEL_LOCATION=base`, and the Chromebooks' `accel-base` label).
    static let machines = [
        Machine(name: "Dell Latitude and Precision (HID-SENSOR-200073)", driver: "accel_3d", display: nil, base: nil),
        Machine(name: "GPD win (KIOX000A)", driver: "kxcjk1013", display: nil, base: nil),
        Machine(name: "HP (lis3lv02d)", driver: "lis3lv02d", display: nil, base: nil),
        Machine(
            name: "HUAWEI MateBook D 15 AMD (SMO8840)",
            driver: "lis2dh12_accel",
            display: nil,
            base: "0, 1, 0; 1, 0, 0; 0, 0, 1"
        ),
        Machine(
            name: "Lenovo Yoga 300-11IBR (DUAL250E, bmc150_accel)",
            driver: "bmc150_accel",
            display: "0, -1, 0; -1, 0, 0; 0, 0, 1",
            base: "1, 0, 0; 0, 1, 0; 0, 0, -1"
        ),
        Machine(
            name: "Medion Akoya E2228T MD61900 (KIOX020A)",
            driver: "kxcjk1013",
            display: "0, -1, 0; -1, 0, 0; 0, 0, 1",
            base: "-1, 0, 0; 0, -1, 0; 0, 0, -1"
        ),
        Machine(
            name: "Medion Akoya Exxxx and rebrands (KIOX010A, KIOX020A)",
            driver: "kxcjk1013",
            display: "0, -1, 0; -1, 0, 0; 0, 0, 1",
            base: "-1, 0, 0; 0, 1, 0; 0, 0, -1"
        ),
        Machine(
            name: "Teclast F6 Pro (KIOX010A, KIOX020A)",
            driver: "kxcjk1013",
            display: "-1, 0, 0; 0, -1, 0; 0, 0, -1",
            base: "0, 1, 0; 1, 0, 0; 0, 0, 1"
        ),
        Machine(
            name: "Trekstor Primebook C11B and C13, Yourbook C11B (KIOX010A, KIOX020A)",
            driver: "kxcjk1013",
            display: "-1, 0, 0; 0, -1, 0; 0, 0, -1",
            base: "0, 1, 0; 1, 0, 0; 0, 0, 1"
        ),
        Machine(
            name: "Chromebooks (cros-ec-accel, accel-display and accel-base)",
            driver: "cros-ec-accel",
            display: "-1, 0, 0; 0, -1, 0; 0, 0, -1",
            base: "-1, 0, 0; 0, 1, 0; 0, 0, 1",
            displayTruth: "-1, 0, 0; 0, -1, 0; 0, 0, 1",
            baseTruth: "-1, 0, 0; 0, 1, 0; 0, 0, -1"
        ),
    ]

    static func matrix(_ text: String?) throws -> MountMatrix {
        try text.map { try MountMatrix(parsing: $0) } ?? .identity
    }

    /// What a sensor whose axes turn into orientd's frame by `truth` reads raw for `reading`: truth⁻¹ (its transpose).
    static func raw(_ truth: MountMatrix, _ reading: Vector3) -> Vector3 {
        let m = truth.entries
        return Vector3(
            x: m[0][0] * reading.x + m[1][0] * reading.y + m[2][0] * reading.z,
            y: m[0][1] * reading.x + m[1][1] * reading.y + m[2][1] * reading.z,
            z: m[0][2] * reading.x + m[1][2] * reading.y + m[2][2] * reading.z
        )
    }

    /// `v` turned about x by `degrees` (a lid opening, or the whole machine rolling about its hinge).
    static func turned(_ v: Vector3, _ degrees: Double) -> Vector3 {
        let phi = degrees * .pi / 180
        return Vector3(x: v.x, y: v.z * sin(phi) + v.y * cos(phi), z: v.z * cos(phi) - v.y * sin(phi))
    }

    /// Laptop, flat, tent, stand and tablet angles, the machine on a desk or rolled about its hinge: the angle from
    /// the raw readings through the entries udev gives is the true one, and a flat base, keyboard up, reads z ≈ −g.
    @Test(arguments: machines)
    func theEntriesGiveTheTrueHingeAngle(machine: Machine) throws {
        let displayInUse = CrosEcFrame.inUse(hwdb: try Self.matrix(machine.display), driver: machine.driver)
        let baseInUse = CrosEcFrame.inUse(hwdb: try Self.matrix(machine.base), driver: machine.driver)
        let displayTruth = try Self.matrix(machine.displayTruth ?? machine.display)
        let baseTruth = try Self.matrix(machine.baseTruth ?? machine.base)
        let flat = Vector3(x: 0, y: 0, z: -Self.g)
        let flatRead = baseInUse.apply(to: Self.raw(baseTruth, flat))
        #expect(abs(flatRead.z + Self.g) < 1e-9, "\(machine): a flat base reads \(flatRead)")
        for angle in [30.0, 90, 110, 135, 180, 270, 300, 330] {
            for roll in [0.0, -60, 45, 180] {
                let base = Self.turned(flat, roll)
                let display = Self.turned(base, angle)
                let measured = HingeAngle.degrees(
                    display: displayInUse.apply(to: Self.raw(displayTruth, display)),
                    base: baseInUse.apply(to: Self.raw(baseTruth, base))
                )
                let error = abs((measured - angle + 540).truncatingRemainder(dividingBy: 360) - 180)
                #expect(error < 1e-6, "\(machine) at \(angle)°, rolled \(roll)°: \(measured)°")
            }
        }
        // The display on its back (the lid opened flat on a table): face up.
        let onItsBack = displayInUse.apply(to: Self.raw(displayTruth, Vector3(x: 0, y: 0, z: Self.g)))
        #expect(onItsBack.z > 0.9 * Self.g, "\(machine): \(onItsBack)")
    }

    /// A calibration of the machine, its sensors read raw in each pose, finds the matrices in use, and the entries it
    /// writes (systemd's form for cros-ec) are systemd's.
    @Test(arguments: machines)
    func aCalibrationWritesSystemdsEntries(machine: Machine) throws {
        let truths: [CalibratedSensor: MountMatrix] = [
            .display: try Self.matrix(machine.displayTruth ?? machine.display),
            .base: try Self.matrix(machine.baseTruth ?? machine.base),
        ]
        let leaning: [CalibratedSensor: Vector3] = [
            .display: Vector3(x: 0, y: -0.6, z: 0.8), .base: Vector3(x: 0, y: 0.5, z: -0.866),
        ]
        var session = CalibrationSession(plan: CalibrationPlan(withBase: true), gravity: Self.g)
        var time = 0.0
        var last: CalibrationSession.Event?
        for step in session.plan.steps {
            // Moved between poses, then held.
            for index in 0..<6 {
                for sensor in CalibratedSensor.allCases {
                    let value = index % 2 == 0 ? 15.0 : -4.0
                    last = session.add(Vector3(x: value, y: 3, z: -value), of: sensor, at: time) ?? last
                }
                time += 0.05
            }
            let end = time + 2
            while time < end {
                for sensor in CalibratedSensor.allCases {
                    let direction = step.expected(sensor) ?? leaning[sensor]!
                    let reading = Self.raw(truths[sensor]!, direction.scaled(by: Self.g))
                    last = session.add(reading, of: sensor, at: time) ?? last
                }
                time += 0.05
            }
        }
        guard case .finished(let outcome, _) = last else {
            Issue.record("\(machine): not finished: \(String(describing: last))")
            return
        }
        for (sensor, entry) in [(CalibratedSensor.display, machine.display), (.base, machine.base)] {
            let found = try #require(outcome.matrices[sensor])
            #expect(
                CrosEcFrame.hwdb(inUse: found, driver: machine.driver) == (try Self.matrix(entry)),
                "\(machine) \(sensor): \(found)"
            )
        }
    }
}
