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

public import OrientationCore

/// The sign of z in systemd's hwdb entries for ChromeOS's accelerometers.
///
/// The embedded controller of a Chromebook turns each sensor into one standard frame on every board, and the kernel's
/// `cros-ec-accel` and `cros-ec-accel-legacy` drivers pass its readings on unchanged: Android's and W3C's convention,
/// a right-handed frame that reads +g along the direction that points up (the lid upright: y ≈ +g; lying on its back:
/// z ≈ +g). systemd's `60-sensor.hwdb` gives the display `-1, 0, 0; 0, -1, 0; 0, 0, -1` and the base
/// `-1, 0, 0; 0, 1, 0; 0, 0, 1`, "the inverse direction (Android & W3C specs vs HID)": x and y as ORIENTATION.md
/// wants them, but z turned too, as HID sensors read it (a reflection, determinant −1). iio-sensor-proxy never reads
/// z, so nothing showed it; orientd does (face up and face down, the hinge angle). Applied as written, a Chromebook
/// lying on its back would read face-down, and its hinge angle would run backwards (a laptop at 110° would read 250°).
///
/// So for these drivers a hwdb matrix that is a reflection is used with its z row negated: the same rotation in x and
/// y, and face up reads z ≈ +g. `orientd calibrate` writes the entry back in systemd's form, so that its entry for a
/// Chromebook is systemd's.
public enum CrosEcFrame {
    /// Whether `driver` is one of ChromeOS's embedded controller's accelerometer drivers.
    public static func applies(toDriver driver: String) -> Bool {
        driver == "cros-ec-accel" || driver == "cros-ec-accel-legacy"
    }

    /// The matrix orientd uses for `driver`'s hwdb matrix.
    public static func inUse(hwdb matrix: MountMatrix, driver: String) -> MountMatrix {
        applies(toDriver: driver) && matrix.determinant < 0 ? matrix.zReflected : matrix
    }

    /// The hwdb matrix that gives `matrix` in use for `driver`: the inverse of ``inUse(hwdb:driver:)``.
    public static func hwdb(inUse matrix: MountMatrix, driver: String) -> MountMatrix {
        applies(toDriver: driver) && matrix.determinant > 0 ? matrix.zReflected : matrix
    }
}
