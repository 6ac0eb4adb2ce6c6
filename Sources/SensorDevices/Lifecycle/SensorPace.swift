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

/// How fast the sensor samples: at the full rate, or slowly while the device is still (`IdleRate=`).
public enum SensorPace: Sendable, Hashable {
    /// `Rate=`: while the device moves, and until it has settled.
    case full
    /// `IdleRate=`: while the device is still and its orientation settled.
    case idle
}
