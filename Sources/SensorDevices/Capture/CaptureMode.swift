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

/// How orientd reads an accelerometer.
public enum CaptureMode: String, Sendable, Hashable {
    /// Scans pushed by the kernel through the IIO buffer (preferred: no polling).
    case buffer
    /// `in_accel_*_raw` read at a fixed rate from a timer.
    case poll
    /// Input events pushed by the kernel through an evdev node (`/dev/input/eventN`), read with libevdev: the
    /// accelerometers of the input subsystem.
    case evdev
}
