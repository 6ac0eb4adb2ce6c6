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

/// The hinge angle of a convertible with two accelerometers, one in the lid (the display) and one in the base.
///
/// 0° closed, 90° lid upright, 180° opened flat, 270° tent or stand, 360° folded back into a tablet. Each reading
/// is taken after its own mount matrix, in systemd's frame (`hwdb.d/60-sensor.hwdb`): a base accelerometer's matrix
/// makes it read what the display reads **when the lid is closed**, so that a base lying flat, keyboard up, reads
/// z ≈ −g, and at 0° both read the same. The hinge then runs along x, and opening the lid by θ turns the display
/// about it: with α = atan2(y, z) of each reading, θ = (α_display − α_base) mod 360°. Turning the whole machine
/// about the hinge changes both α alike and θ not at all.
public enum HingeAngle {
    /// θ in degrees, in [0°, 360°), from a display and a base reading in systemd's frame.
    public static func degrees(display: Vector3, base: Vector3) -> Double {
        let alphaDisplay = Trigonometry.arctangent(y: display.y, x: display.z)
        let alphaBase = Trigonometry.arctangent(y: base.y, x: base.z)
        var angle = (alphaDisplay - alphaBase).truncatingRemainder(dividingBy: 360)
        if angle < 0 { angle += 360 }
        return angle
    }
}
