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

/// A first-order low-pass filter of a vector: each step moves the value toward the input by the step's weight,
/// dt / (τ + dt), so that the value follows the input with the time constant τ at any sampling rate.
///
/// A value type of three doubles: no allocation, updated in place.
struct LowPassFilter: Sendable {
    /// The filtered vector.
    var value: Vector3

    /// A filter holding `value`.
    init(_ value: Vector3 = .zero) {
        self.value = value
    }

    /// The weight of a step of `dt` seconds for the time constant `timeConstant` (seconds): dt / (τ + dt).
    static func weight(dt: Double, timeConstant: Double) -> Double {
        dt / (timeConstant + dt)
    }

    /// Moves the value toward `input` by `weight` (0: stays, 1: becomes the input).
    mutating func update(toward input: Vector3, weight: Double) {
        value.x += weight * (input.x - value.x)
        value.y += weight * (input.y - value.y)
        value.z += weight * (input.z - value.z)
    }
}
