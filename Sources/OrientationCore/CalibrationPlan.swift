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

/// Which accelerometer a calibration step speaks of: the display's, or the base's of a convertible.
public enum CalibratedSensor: String, Sendable, Hashable, CaseIterable {
    case display
    case base
}

/// One pose of a guided calibration: what the person is asked to do, and what each accelerometer reads in that
/// pose once its mount matrix is right (a unit vector in the frame of ORIENTATION.md; the base's frame is systemd's:
/// what the display reads with the lid closed, so a flat base, keyboard up, reads (0, 0, −1)), or nil when the pose
/// does not tell anything about that accelerometer.
public struct CalibrationStep: Sendable, Hashable {
    /// The instruction, in plain words.
    public var say: String
    /// The display accelerometer's reading in this pose, in units of g, once calibrated.
    public var display: Vector3?
    /// The base accelerometer's reading in this pose, in units of g, once calibrated.
    public var base: Vector3?
    /// What to do where the instruction does not fit every machine, for people.
    public var hint: String?

    public init(say: String, display: Vector3?, base: Vector3?, hint: String? = nil) {
        self.say = say
        self.display = display
        self.base = base
        self.hint = hint
    }

    /// The expected reading of `sensor`, or nil when this pose does not use it.
    public func expected(_ sensor: CalibratedSensor) -> Vector3? {
        switch sensor {
        case .display: display
        case .base: base
        }
    }
}

/// The poses a calibration asks for, in order.
///
/// Each accelerometer needs three poses whose expected readings point along three different axes: two would leave
/// the third axis's sign open, and mount matrices are not all rotations (some are reflections). The poses never need
/// a convertible to be folded: its base is read lying flat, standing on its side and held upright.
public struct CalibrationPlan: Sendable, Hashable {
    /// The steps, in order.
    public var steps: [CalibrationStep]
    /// Whether the plan calibrates a base accelerometer too.
    public var hasBase: Bool

    /// What "upright" means, said once before the first step: systemd's hwdb defines the axes by the display panel,
    /// not by the casing, so a panel built in portrait is upright in portrait.
    public static let uprightMeaning = """
        "Upright" below means the way the picture stands when nothing turns it, as the maker's logo appears at \
        power-on. On a laptop that is its usual position, keyboard toward you. On a tablet whose panel is built in \
        portrait (its logo appears sideways when you hold it in landscape), it is the portrait position, even if you \
        mostly use it in landscape. Left and right are as you see them facing the screen.
        """

    /// The plan for a display accelerometer alone, or for a convertible's display and base accelerometers.
    public init(withBase: Bool) {
        hasBase = withBase
        let up = Vector3(x: 0, y: 0, z: 1)
        let upright = Vector3(x: 0, y: -1, z: 0)
        let leftEdgeUp = Vector3(x: 1, y: 0, z: 0)
        // The base in systemd's frame reads what the display would with the lid closed over it: keyboard up as a
        // display lying face down, and stood on its front edge, the hinge at the top, as a display upside down.
        let keyboardUp = Vector3(x: 0, y: 0, z: -1)
        let hingeAtTheTop = Vector3(x: 0, y: 1, z: 0)
        if withBase {
            steps = [
                CalibrationStep(
                    say: "Open it as a laptop on a table, the keyboard lying flat",
                    display: nil,
                    base: keyboardUp
                ),
                CalibrationStep(
                    say: "Stand it on its right side, lid open, so that its left edge points up",
                    display: leftEdgeUp,
                    base: leftEdgeUp
                ),
                CalibrationStep(
                    say: "Lift it and hold the screen upright in front of you, facing you",
                    display: upright,
                    base: nil
                ),
                CalibrationStep(
                    say: "Hold it so that the screen lies flat, facing the ceiling",
                    display: up,
                    base: nil,
                    hint: "or open the lid flat on the table, if it opens that far"
                ),
                CalibrationStep(
                    say: "Hold it so that the keyboard stands upright facing you, the hinge at the top",
                    display: nil,
                    base: hingeAtTheTop
                ),
            ]
        } else {
            steps = [
                CalibrationStep(
                    say: "Lay it flat on a table, screen up",
                    display: up,
                    base: nil,
                    hint: "a laptop whose lid does not open flat: hold it so that the screen faces the ceiling"
                ),
                CalibrationStep(
                    say: "Hold it upright in front of you, screen facing you",
                    display: upright,
                    base: nil,
                    hint:
                        "upright as the maker's logo stands at power-on: on a tablet with a portrait panel, in portrait"
                ),
                CalibrationStep(
                    say: "Turn it a quarter turn clockwise, so that its left edge points up, screen still facing you",
                    display: leftEdgeUp,
                    base: nil
                ),
            ]
        }
    }

    /// The sensors this plan calibrates.
    public var sensors: [CalibratedSensor] { hasBase ? [.display, .base] : [.display] }
}
