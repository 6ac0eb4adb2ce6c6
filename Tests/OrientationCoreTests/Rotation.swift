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

import Glibc
import OrientationCore

/// A 3×3 rotation matrix for the scenario generator: the columns are a frame's axes in the outer frame.
struct Rotation {
    var rows: (Vector3, Vector3, Vector3)

    static let identity = Rotation(
        rows: (Vector3(x: 1, y: 0, z: 0), Vector3(x: 0, y: 1, z: 0), Vector3(x: 0, y: 0, z: 1))
    )

    /// A turn of `degrees` about x (right-handed).
    static func x(_ degrees: Double) -> Rotation {
        let (s, c) = sincos(degrees)
        return Rotation(rows: (Vector3(x: 1, y: 0, z: 0), Vector3(x: 0, y: c, z: -s), Vector3(x: 0, y: s, z: c)))
    }

    /// A turn of `degrees` about y (right-handed).
    static func y(_ degrees: Double) -> Rotation {
        let (s, c) = sincos(degrees)
        return Rotation(rows: (Vector3(x: c, y: 0, z: s), Vector3(x: 0, y: 1, z: 0), Vector3(x: -s, y: 0, z: c)))
    }

    /// A turn of `degrees` about z (right-handed).
    static func z(_ degrees: Double) -> Rotation {
        let (s, c) = sincos(degrees)
        return Rotation(rows: (Vector3(x: c, y: -s, z: 0), Vector3(x: s, y: c, z: 0), Vector3(x: 0, y: 0, z: 1)))
    }

    /// This rotation applied to `v`.
    func apply(_ v: Vector3) -> Vector3 {
        Vector3(x: Self.dot(rows.0, v), y: Self.dot(rows.1, v), z: Self.dot(rows.2, v))
    }

    /// The inverse (transpose) applied to `v`: a vector of the outer frame in this frame.
    func applyInverse(_ v: Vector3) -> Vector3 {
        Vector3(
            x: rows.0.x * v.x + rows.1.x * v.y + rows.2.x * v.z,
            y: rows.0.y * v.x + rows.1.y * v.y + rows.2.y * v.z,
            z: rows.0.z * v.x + rows.1.z * v.y + rows.2.z * v.z
        )
    }

    /// The product: `self` after `other` (`other` is applied first).
    static func * (lhs: Rotation, rhs: Rotation) -> Rotation {
        let c0 = lhs.apply(Vector3(x: rhs.rows.0.x, y: rhs.rows.1.x, z: rhs.rows.2.x))
        let c1 = lhs.apply(Vector3(x: rhs.rows.0.y, y: rhs.rows.1.y, z: rhs.rows.2.y))
        let c2 = lhs.apply(Vector3(x: rhs.rows.0.z, y: rhs.rows.1.z, z: rhs.rows.2.z))
        return Rotation(
            rows: (
                Vector3(x: c0.x, y: c1.x, z: c2.x), Vector3(x: c0.y, y: c1.y, z: c2.y),
                Vector3(x: c0.z, y: c1.z, z: c2.z)
            )
        )
    }

    private static func dot(_ a: Vector3, _ b: Vector3) -> Double { a.x * b.x + a.y * b.y + a.z * b.z }

    private static func sincos(_ degrees: Double) -> (Double, Double) {
        let r = degrees * .pi / 180
        return (sin(r), cos(r))
    }
}
