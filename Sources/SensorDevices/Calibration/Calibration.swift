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

/// Turns raw readings into m/s² in the panel frame: ((raw + offset) × scale), then the mount matrix.
public struct Calibration: Sendable, Hashable {
    /// The scale of each axis (m/s² per count); 1 when the driver gives none.
    public var scale: Vector3
    /// The offset of each axis, in counts, added before scaling.
    public var offset: Vector3
    /// The mount matrix.
    public var matrix: MountMatrix

    /// A calibration from its parts.
    public init(scale: Vector3, offset: Vector3 = .zero, matrix: MountMatrix = .identity) {
        self.scale = scale
        self.offset = offset
        self.matrix = matrix
    }

    /// The acceleration in the panel frame for raw counts.
    @inlinable
    public func apply(x: Int64, y: Int64, z: Int64) -> Vector3 {
        matrix.apply(
            to: Vector3(
                x: (Double(x) + offset.x) * scale.x,
                y: (Double(y) + offset.y) * scale.y,
                z: (Double(z) + offset.z) * scale.z
            )
        )
    }
}
