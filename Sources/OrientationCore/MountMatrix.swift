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

/// The 3×3 matrix that turns an accelerometer's raw axes into the panel frame of ORIENTATION.md:
/// corrected = M · raw.
///
/// Written as in systemd's hwdb and the kernel's sysfs attributes: `"a, b, c; d, e, f; g, h, i"`,
/// rows separated by `;`, columns by `,`, whitespace anywhere.
public struct MountMatrix: Sendable, Hashable, CustomStringConvertible {
    /// The nine entries, row by row.
    public private(set) var rows: (Vector3, Vector3, Vector3)

    /// The identity matrix: the raw axes are already in the panel frame.
    public static let identity = MountMatrix(
        uncheckedRows: (Vector3(x: 1, y: 0, z: 0), Vector3(x: 0, y: 1, z: 0), Vector3(x: 0, y: 0, z: 1))
    )

    private init(uncheckedRows rows: (Vector3, Vector3, Vector3)) {
        self.rows = rows
    }

    /// A matrix from its nine entries, row by row.
    /// - Throws: ``MountMatrixError`` when an entry is not finite or a row is all zeros.
    public init(_ entries: [[Double]]) throws(MountMatrixError) {
        guard entries.count == 3 else { throw MountMatrixError(.rowCount(entries.count)) }
        var vectors: [Vector3] = []
        for (index, row) in entries.enumerated() {
            guard row.count == 3 else { throw MountMatrixError(.columnCount(row: index + 1, count: row.count)) }
            for (column, value) in row.enumerated() where !value.isFinite {
                throw MountMatrixError(.notFinite(row: index + 1, column: column + 1, text: String(value)))
            }
            guard row.contains(where: { $0 != 0 }) else { throw MountMatrixError(.zeroRow(row: index + 1)) }
            vectors.append(Vector3(x: row[0], y: row[1], z: row[2]))
        }
        rows = (vectors[0], vectors[1], vectors[2])
    }

    /// Parses the text form, e.g. `"0, -1, 0; 1, 0, 0; 0, 0, 1"`. Numbers are read the same way
    /// in every locale (a `.` is the decimal point).
    /// - Throws: ``MountMatrixError`` naming what is wrong: the shape, an entry that is not a
    ///   number or not finite, a row of zeros.
    public init(parsing text: some StringProtocol) throws(MountMatrixError) {
        let rowTexts = text.split(separator: ";", omittingEmptySubsequences: false)
        guard rowTexts.count == 3 else {
            if text.allSatisfy(\.isWhitespace) { throw MountMatrixError(.empty) }
            throw MountMatrixError(.rowCount(rowTexts.count))
        }
        var entries: [[Double]] = []
        for (rowIndex, rowText) in rowTexts.enumerated() {
            let cells = rowText.split(separator: ",", omittingEmptySubsequences: false)
            guard cells.count == 3 else {
                throw MountMatrixError(.columnCount(row: rowIndex + 1, count: cells.count))
            }
            var row: [Double] = []
            for (columnIndex, cell) in cells.enumerated() {
                let trimmed = cell.trimmingWhitespace()
                guard let value = Double(trimmed) else {
                    throw MountMatrixError(.notANumber(row: rowIndex + 1, column: columnIndex + 1, text: trimmed))
                }
                guard value.isFinite else {
                    throw MountMatrixError(.notFinite(row: rowIndex + 1, column: columnIndex + 1, text: trimmed))
                }
                row.append(value)
            }
            entries.append(row)
        }
        try self.init(entries)
    }

    /// M · v.
    @inlinable
    public func apply(to v: Vector3) -> Vector3 {
        Vector3(
            x: rows.0.x * v.x + rows.0.y * v.y + rows.0.z * v.z,
            y: rows.1.x * v.x + rows.1.y * v.y + rows.1.z * v.z,
            z: rows.2.x * v.x + rows.2.y * v.y + rows.2.z * v.z
        )
    }

    /// The entries row by row.
    public var entries: [[Double]] {
        [rows.0, rows.1, rows.2].map { [$0.x, $0.y, $0.z] }
    }

    /// The matrix with its third row negated: the same x and y, the opposite sign of z.
    public var zReflected: MountMatrix {
        MountMatrix(uncheckedRows: (rows.0, rows.1, Vector3(x: -rows.2.x, y: -rows.2.y, z: -rows.2.z)))
    }

    public static func == (lhs: MountMatrix, rhs: MountMatrix) -> Bool {
        lhs.rows.0 == rhs.rows.0 && lhs.rows.1 == rhs.rows.1 && lhs.rows.2 == rhs.rows.2
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(rows.0)
        hasher.combine(rows.1)
        hasher.combine(rows.2)
    }

    /// The text form, as hwdb writes it.
    public var description: String {
        entries.map { row in row.map(Self.format).joined(separator: ", ") }.joined(separator: "; ")
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// Why a mount matrix was rejected.
public struct MountMatrixError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the matrix.
    public enum Reason: Sendable, Hashable {
        case empty
        case rowCount(Int)
        case columnCount(row: Int, count: Int)
        case notANumber(row: Int, column: Int, text: String)
        case notFinite(row: Int, column: Int, text: String)
        case zeroRow(row: Int)
    }

    /// What is wrong.
    public var reason: Reason

    init(_ reason: Reason) {
        self.reason = reason
    }

    public var description: String {
        let shape = "expected 3 rows of 3 numbers, like \"1, 0, 0; 0, 1, 0; 0, 0, 1\""
        switch reason {
        case .empty:
            return "mount matrix is empty; \(shape)"
        case .rowCount(let count):
            return "mount matrix has \(count) row\(count == 1 ? "" : "s") separated by ';'; \(shape)"
        case .columnCount(let row, let count):
            return "mount matrix row \(row) has \(count) entr\(count == 1 ? "y" : "ies") separated by ','; \(shape)"
        case .notANumber(let row, let column, let text):
            return "mount matrix entry \(row),\(column) '\(text)' is not a number (the decimal point is '.')"
        case .notFinite(let row, let column, let text):
            return "mount matrix entry \(row),\(column) '\(text)' is not a finite number"
        case .zeroRow(let row):
            return "mount matrix row \(row) is all zeros: that axis would always read 0"
        }
    }
}
