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

/// The mount matrix that turns raw readings into the readings they should be: M · rawᵢ = expectedᵢ for three poses
/// whose expected readings point along three different axes, handedness included.
public enum MountMatrixFit {
    /// How far (as a matrix entry, about the sine of the angle) the fitted matrix may be from a signed permutation
    /// and still be taken for it: readings a hand held within about 20° of each pose.
    public static let snapTolerance = 0.4

    /// M = E · R⁻¹, where R's columns are the raw readings scaled to unit length and E's the expected unit readings;
    /// the signed permutation it is close to when every entry is within ``snapTolerance`` of it.
    /// - Returns: nil when the raw readings do not span three dimensions (two of them along the same axis).
    public static func fit(raw: [Vector3], expected: [Vector3]) -> MountMatrix? {
        guard raw.count == 3, expected.count == 3 else { return nil }
        let units = raw.map { $0.scaled(by: 1 / $0.magnitude) }
        guard units.allSatisfy(\.isFinite), let inverse = Matrix3(columns: units).inverse else { return nil }
        let product = Matrix3(columns: expected).multiplied(by: inverse)
        let estimate = product.entries
        if let snapped = snap(estimate) { return snapped }
        // Not axis-aligned: the estimate itself, to three decimals.
        let rounded = estimate.map { row in row.map { ($0 * 1000).rounded() / 1000 } }
        return try? MountMatrix(rounded)
    }

    /// The signed permutation within ``snapTolerance`` of `entries`, or nil.
    public static func snap(_ entries: [[Double]]) -> MountMatrix? {
        let rounded = entries.map { row in row.map { $0.rounded() + 0 } }
        for (row, roundedRow) in zip(entries, rounded) {
            for (value, target) in zip(row, roundedRow) where abs(value - target) > snapTolerance || abs(target) > 1 {
                return nil
            }
        }
        guard let matrix = try? MountMatrix(rounded), matrix.isSignedPermutation else { return nil }
        return matrix
    }
}

extension MountMatrix {
    /// Whether every row and every column holds exactly one entry, +1 or −1: the mount matrices of sensors soldered
    /// along the panel's axes, rotations and reflections alike.
    public var isSignedPermutation: Bool {
        let entries = entries
        for row in entries where row.filter({ $0 != 0 }) != [1] && row.filter({ $0 != 0 }) != [-1] {
            return false
        }
        for column in 0..<3 where entries.filter({ $0[column] != 0 }).count != 1 {
            return false
        }
        return true
    }

    /// The determinant: +1 for a rotation, −1 for a reflection, 0 when two rows read the same axis.
    public var determinant: Double { Matrix3(rows: entries).determinant }

    /// M⁻¹, which turns a reading back into what the sensor read before the matrix; nil when the matrix cannot be
    /// inverted (two rows along the same axis).
    public var inverse: MountMatrix? {
        guard let inverse = Matrix3(rows: entries).inverse else { return nil }
        return try? MountMatrix(inverse.entries)
    }
}

extension Vector3 {
    /// The vector times a number.
    public func scaled(by factor: Double) -> Vector3 {
        Vector3(x: x * factor, y: y * factor, z: z * factor)
    }

    /// The dot product.
    public func dot(_ other: Vector3) -> Double {
        x * other.x + y * other.y + z * other.z
    }

    /// The vector minus another.
    public func minus(_ other: Vector3) -> Vector3 {
        Vector3(x: x - other.x, y: y - other.y, z: z - other.z)
    }

    /// The index (0 for x, 1 for y, 2 for z) of the largest component by size, and that component (no allocation).
    public var dominantAxis: (index: Int, value: Double) {
        if abs(x) >= abs(y) && abs(x) >= abs(z) { return (0, x) }
        return abs(y) >= abs(z) ? (1, y) : (2, z)
    }
}

/// A 3×3 matrix of doubles for the fit: rows of entries.
struct Matrix3 {
    var rows: [[Double]]

    init(rows: [[Double]]) {
        self.rows = rows
    }

    init(columns: [Vector3]) {
        rows = [columns.map(\.x), columns.map(\.y), columns.map(\.z)]
    }

    var entries: [[Double]] { rows }

    var determinant: Double {
        let m = rows
        return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
            - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    }

    /// The inverse, or nil when the matrix is (nearly) singular.
    var inverse: Matrix3? {
        let determinant = determinant
        guard abs(determinant) > 1e-3, determinant.isFinite else { return nil }
        let m = rows
        var result = [[Double]](repeating: [0, 0, 0], count: 3)
        for row in 0..<3 {
            for column in 0..<3 {
                // The cofactor of (column, row), for the adjugate.
                let r = [0, 1, 2].filter { $0 != column }
                let c = [0, 1, 2].filter { $0 != row }
                let minor = m[r[0]][c[0]] * m[r[1]][c[1]] - m[r[0]][c[1]] * m[r[1]][c[0]]
                result[row][column] = ((row + column) % 2 == 0 ? minor : -minor) / determinant
            }
        }
        return Matrix3(rows: result)
    }

    func multiplied(by other: Matrix3) -> Matrix3 {
        var result = [[Double]](repeating: [0, 0, 0], count: 3)
        for row in 0..<3 {
            for column in 0..<3 {
                result[row][column] = (0..<3).reduce(0) { $0 + rows[row][$1] * other.rows[$1][column] }
            }
        }
        return Matrix3(rows: result)
    }
}
