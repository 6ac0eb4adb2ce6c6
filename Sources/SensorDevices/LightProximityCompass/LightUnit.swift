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

/// The unit of an ambient light level, as iio-sensor-proxy's `LightLevelUnit` names it.
public enum LightUnit: String, Sendable, Hashable {
    /// Lux: an illuminance channel, processed (`_input`) or raw with its scale.
    case lux
    /// A value of the device's own, not comparable across devices: a raw intensity, or a raw illuminance the kernel
    /// gives no scale for.
    case vendor
}
