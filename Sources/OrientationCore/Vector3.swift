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

/// A three-dimensional vector of doubles, in the axis convention of ORIENTATION.md.
public struct Vector3: Sendable, Hashable, CustomStringConvertible {
    public var x: Double
    public var y: Double
    public var z: Double

    /// A vector from its components.
    @inlinable
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The zero vector.
    public static let zero = Vector3(x: 0, y: 0, z: 0)

    /// The Euclidean length.
    @inlinable
    public var magnitude: Double { (x * x + y * y + z * z).squareRoot() }

    /// Whether all three components are finite.
    @inlinable
    public var isFinite: Bool { x.isFinite && y.isFinite && z.isFinite }

    public var description: String { "(\(x), \(y), \(z))" }
}
