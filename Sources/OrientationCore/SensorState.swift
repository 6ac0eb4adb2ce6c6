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

/// A sensor's status: what the sensor itself reports, and what PROTOCOL.md's `sensor` field says.
public enum SensorState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Capturing: someone is generating.
    case active
    /// Nobody is generating.
    case stopped
    /// No display accelerometer.
    case absent
    /// The last error is in `status`.
    case failed
}
