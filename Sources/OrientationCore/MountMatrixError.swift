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
