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
import Testing

/// Readings of a two-accelerometer convertible, made from a hinge angle and the pose of the base.
enum Convertible {
    static let g = HingeMonitor.gravity

    /// The base's reading, in systemd's frame (lying flat, keyboard up: (0, 0, −g)), when the machine is turned by
    /// `roll` degrees about the hinge (x) and its hinge axis is raised by `pitch` degrees from horizontal.
    static func base(roll: Double, pitch: Double = 0, magnitude: Double = g) -> Vector3 {
        let r = roll * .pi / 180
        let p = pitch * .pi / 180
        return Vector3(x: magnitude * sin(p), y: -magnitude * cos(p) * sin(r), z: -magnitude * cos(p) * cos(r))
    }

    /// The display's reading at hinge angle `angle` for this base reading: the base's turned about x by `angle`
    /// (closed, at 0°, both read the same).
    static func display(angle: Double, base b: Vector3) -> Vector3 {
        let phi = angle * .pi / 180
        return Vector3(x: b.x, y: b.z * sin(phi) + b.y * cos(phi), z: b.z * cos(phi) - b.y * sin(phi))
    }

    /// The smallest distance between two angles on the circle, degrees.
    static func distance(_ a: Double, _ b: Double) -> Double {
        let d = (a - b).truncatingRemainder(dividingBy: 360).magnitude
        return min(d, 360 - d)
    }
}

@Suite struct HingeAngleTests {
    /// The checks of systemd's convention: a base flat on a table, keyboard up, reads (0, 0, −g), as the display
    /// does lying face down (the lid closed over it); the lid upright reads −y, opened flat +z, as a tent +y.
    @Test(arguments: [
        (Vector3(x: 0, y: -9.8, z: 0), 90.0),
        (Vector3(x: 0, y: -9.8 * sin(110 * Double.pi / 180), z: -9.8 * cos(110 * Double.pi / 180)), 110.0),
        (Vector3(x: 0, y: 0, z: 9.8), 180.0),
        (Vector3(x: 0, y: 9.8, z: 0), 270.0),
    ])
    func conventionChecks(display: Vector3, expected: Double) {
        let measured = HingeAngle.degrees(display: display, base: Vector3(x: 0, y: 0, z: -9.8))
        #expect(abs(measured - expected) < 1e-9)
    }

    /// Stood on its front edge, the hinge at the top, the base reads +y; a display upright over it (the lid shut)
    /// reads the same: 0°.
    @Test func theBaseOnItsFrontEdgeReadsPlusY() {
        let base = Vector3(x: 0, y: 9.8, z: 0)
        let closed = HingeAngle.degrees(display: Vector3(x: 0, y: 9.8, z: 0), base: base)
        #expect(Convertible.distance(closed, 0) < 1e-9)
        let lidUpright = HingeAngle.degrees(display: Vector3(x: 0, y: 0, z: -9.8), base: base)
        #expect(abs(lidUpright - 90) < 1e-9, "the lid opened a quarter from the front edge stands face down")
    }

    @Test func closedAndFoldedLookTheSame() {
        let base = Vector3(x: 0, y: 0, z: -9.8)
        let closed = HingeAngle.degrees(display: Vector3(x: 0, y: 0, z: -9.8), base: base)
        #expect(Convertible.distance(closed, 0) < 1e-9)
        #expect(closed >= 0 && closed < 360)
    }

    /// Every 15°, with the machine turned about the hinge and its hinge axis raised: the angle is the same.
    @Test(arguments: Array(stride(from: 15.0, through: 345.0, by: 15.0)))
    func everyFifteenDegreesUnderWholeMachineTilts(angle: Double) {
        for roll in stride(from: -180.0, to: 180.0, by: 20.0) {
            for pitch in [-60.0, -30, 0, 30, 60] {
                let base = Convertible.base(roll: roll, pitch: pitch)
                let display = Convertible.display(angle: angle, base: base)
                let measured = HingeAngle.degrees(display: display, base: base)
                #expect(measured >= 0 && measured < 360)
                #expect(
                    Convertible.distance(measured, angle) < 1e-9,
                    "angle \(angle) roll \(roll) pitch \(pitch): \(measured)"
                )
            }
        }
    }

    /// The arctangent without the C library agrees with atan2 over the whole circle and at the quadrant edges.
    @Test func agreesWithAtan2() {
        var worst = 0.0
        for tenth in stride(from: -1800, through: 1800, by: 7) {
            let alpha = Double(tenth) / 10
            let r = alpha * .pi / 180
            for length in [1e-6, 1.0, 9.80665, 4096.0] {
                let display = Vector3(x: 0, y: length * sin(r), z: length * cos(r))
                let measured = HingeAngle.degrees(display: display, base: Vector3(x: 0, y: 0, z: 1))
                let expected = (atan2(display.y, display.z) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
                worst = max(worst, Convertible.distance(measured, expected))
            }
        }
        #expect(worst < 1e-9)
    }
}

@Suite struct HingeConfigurationTests {
    @Test func defaultsAreChromeOSThresholds() throws {
        let configuration = try HingeConfiguration(tabletAngleDegrees: 200, laptopAngleDegrees: 160)
        #expect(configuration.tabletAngle == 200 && configuration.laptopAngle == 160)
        #expect(HingeConfiguration() == configuration)
    }

    @Test(arguments: [
        (180, 160, "TabletAngle"), (361, 160, "TabletAngle"), (200, 180, "LaptopAngle"), (200, -1, "LaptopAngle"),
    ])
    func outOfRangeIsRefusedWithTheRange(tablet: Int, laptop: Int, key: String) {
        #expect {
            _ = try HingeConfiguration(tabletAngleDegrees: tablet, laptopAngleDegrees: laptop)
        } throws: { error in
            guard let error = error as? SettingRangeError else { return false }
            return error.key == key && error.description.contains("allowed")
        }
    }

    @Test func edgesOfTheRangesAreAccepted() throws {
        let widest = try HingeConfiguration(tabletAngleDegrees: 360, laptopAngleDegrees: 0)
        #expect(widest.tabletAngle == 360 && widest.laptopAngle == 0)
        let narrowest = try HingeConfiguration(tabletAngleDegrees: 181, laptopAngleDegrees: 179)
        #expect(narrowest.tabletAngle == 181 && narrowest.laptopAngle == 179)
    }
}
