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

/// One accelerometer reading: a time and an acceleration in m/s² in the frame of ORIENTATION.md
/// (after the mount matrix).
public struct Sample: Sendable, Hashable {
    /// Seconds on a monotonic clock (or from the first sample of a trace).
    public var time: Double
    /// The acceleration in m/s² (or in any constant unit: the classifier learns the size of gravity).
    public var acceleration: Vector3

    /// A sample from its time and acceleration.
    @inlinable
    public init(time: Double, acceleration: Vector3) {
        self.time = time
        self.acceleration = acceleration
    }

    /// A sample from its time and components.
    @inlinable
    public init(time: Double, x: Double, y: Double, z: Double) {
        self.init(time: time, acceleration: Vector3(x: x, y: y, z: z))
    }
}
