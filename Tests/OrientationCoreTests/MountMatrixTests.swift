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

import OrientationCore
import Testing

/// The mount matrix of ORIENTATION.md: `"a, b, c; d, e, f; g, h, i"`, parsed locale-independently,
/// corrected = M · raw, i.e. x' = a·x + b·y + c·z.
@Suite struct MountMatrixTests {
    static let rotated: [[Double]] = [[0, -1, 0], [1, 0, 0], [0, 0, 1]]

    @Test func parsesTheHwdbForm() throws {
        let matrix = try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1")
        #expect(matrix.entries == Self.rotated)
        #expect(matrix != .identity)
    }

    @Test(arguments: [
        "0,-1,0;1,0,0;0,0,1",
        "\t0,\t-1,\t0;\t1,\t0,\t0;\t0,\t0,\t1",
        " 0, -1, 0; 1, 0, 0; 0, 0, 1 ",
        "0, -1, 0; 1, 0, 0; 0, 0, 1\n",
        "\n 0 , -1 , 0 ;\n1 , 0 , 0 ;\n0 , 0 , 1\n",
        "  0,   -1,0 ;1,0,   0;   0,0,1\t\n",
    ])
    func toleratesWhitespace(text: String) throws {
        #expect(try MountMatrix(parsing: text).entries == Self.rotated)
    }

    @Test func readsDecimalsNegativesAndExponents() throws {
        let matrix = try MountMatrix(parsing: "0.5, -1.25, 2e-1; -3E2, 1.0, -0.0625; 1e0, -2.5e+1, .5")
        #expect(matrix.entries == [[0.5, -1.25, 0.2], [-300, 1, -0.0625], [1, -25, 0.5]])
    }

    @Test func identity() throws {
        let parsed = try MountMatrix(parsing: "1, 0, 0; 0, 1, 0; 0, 0, 1")
        #expect(parsed == MountMatrix.identity)
        #expect(parsed == .identity)
        let v = Vector3(x: 0.12, y: -9.79, z: 0.3)
        #expect(MountMatrix.identity.apply(to: v) == v)
    }

    @Test func textFormRoundTrips() throws {
        for text in ["0, -1, 0; 1, 0, 0; 0, 0, 1", "0.5, 0, 0; 0, -1.5, 0; 0, 0, 1"] {
            let matrix = try MountMatrix(parsing: text)
            #expect(try MountMatrix(parsing: String(describing: matrix)) == matrix)
        }
    }

    // MARK: Rejections, each with its reason

    static let rejections: [(String, MountMatrixError.Reason)] = [
        ("", .empty),
        ("   \n", .empty),
        ("1, 0, 0; 0, 1, 0", .rowCount(2)),
        ("1, 0, 0; 0, 1, 0; 0, 0, 1; 0, 0, 1", .rowCount(4)),
        ("1, 0, 0", .rowCount(1)),
        ("1, 0, 0, 0; 0, 1, 0; 0, 0, 1", .columnCount(row: 1, count: 4)),
        ("1, 0, 0; 0, 1; 0, 0, 1", .columnCount(row: 2, count: 2)),
        ("1 0 0; 0 1 0; 0 0 1", .columnCount(row: 1, count: 1)),
        // A comma decimal is never read as a decimal point, whatever the locale: it is a shape error.
        ("0,5, 0, 0; 0, 1, 0; 0, 0, 1", .columnCount(row: 1, count: 4)),
        ("1, 0, 0; 0, 0,5, 0; 0, 0, 1", .columnCount(row: 2, count: 4)),
        ("1, 0, x; 0, 1, 0; 0, 0, 1", .notANumber(row: 1, column: 3, text: "x")),
        ("1, 0, 0; 0, one, 0; 0, 0, 1", .notANumber(row: 2, column: 2, text: "one")),
        ("1, 0, 0; 0, 1, 0; , 0, 1", .notANumber(row: 3, column: 1, text: "")),
        ("1, 0, 0; 0, 1, 0; 0, 0, 1O", .notANumber(row: 3, column: 3, text: "1O")),
        ("inf, 0, 0; 0, 1, 0; 0, 0, 1", .notFinite(row: 1, column: 1, text: "inf")),
        ("1, 0, 0; 0, nan, 0; 0, 0, 1", .notFinite(row: 2, column: 2, text: "nan")),
        ("1, 0, 0; 0, 1, 0; 0, 0, -inf", .notFinite(row: 3, column: 3, text: "-inf")),
        ("1, 0, 0; 0, 0, 0; 0, 0, 1", .zeroRow(row: 2)),
        ("0.0, -0, 0e5; 0, 1, 0; 0, 0, 1", .zeroRow(row: 1)),
        ("1, 0, 0; 0, 1, 0; 0, 0, 0", .zeroRow(row: 3)),
    ]

    @Test(arguments: rejections)
    func rejectsWithTheReason(text: String, reason: MountMatrixError.Reason) {
        let error = #expect(throws: MountMatrixError.self) { try MountMatrix(parsing: text) }
        #expect(error?.reason == reason)
    }

    @Test func errorDescriptionSaysWhich() {
        let zero = #expect(throws: MountMatrixError.self) { try MountMatrix(parsing: "1, 0, 0; 0, 0, 0; 0, 0, 1") }
        #expect(zero.map { String(describing: $0).contains("row 2") } == true)
        let word = #expect(throws: MountMatrixError.self) { try MountMatrix(parsing: "1, 0, 0; 0, abc, 0; 0, 0, 1") }
        #expect(word.map { String(describing: $0).contains("abc") } == true)
    }

    @Test func entriesInitialiserChecksTheSameRules() {
        #expect(throws: MountMatrixError.self) { try MountMatrix([[1, 0, 0], [0, 1, 0]]) }
        #expect(throws: MountMatrixError.self) { try MountMatrix([[1, 0, 0], [0, 1, 0], [0, 0, 1, 0]]) }
        #expect(throws: MountMatrixError.self) { try MountMatrix([[1, 0, 0], [0, .nan, 0], [0, 0, 1]]) }
        #expect(throws: MountMatrixError.self) { try MountMatrix([[0, 0, 0], [0, 1, 0], [0, 0, 1]]) }
        #expect(throws: Never.self) { try MountMatrix([[0, 1, 0], [-1, 0, 0], [0, 0, 1]]) }
    }

    // MARK: Application: M · v, row by row (x' = a·x + b·y + c·z)

    static let applications: [(String, Vector3, Vector3)] = [
        // Swaps and negates: x' = −y, y' = x.
        ("0, -1, 0; 1, 0, 0; 0, 0, 1", Vector3(x: 1, y: 2, z: 3), Vector3(x: -2, y: 1, z: 3)),
        // x' = −y, y' = −x: the example, which is symmetric (Mᵀ = M).
        ("0, -1, 0; -1, 0, 0; 0, 0, 1", Vector3(x: 1, y: 2, z: 3), Vector3(x: -2, y: -1, z: 3)),
        // x' = y, y' = −x (Mᵀ·v would give (−2, 1, 3)).
        ("0, 1, 0; -1, 0, 0; 0, 0, 1", Vector3(x: 1, y: 2, z: 3), Vector3(x: 2, y: -1, z: 3)),
        // A full non-symmetric matrix (Mᵀ·v would give (11, 13, 17)).
        ("1, 2, 3; 4, 5, 6; 7, 8, 10", Vector3(x: 1, y: -1, z: 2), Vector3(x: 5, y: 11, z: 19)),
        // z' = −z, x' = −x: a sensor mounted upside down behind the panel.
        ("-1, 0, 0; 0, 1, 0; 0, 0, -1", Vector3(x: 0.5, y: -9.81, z: 1), Vector3(x: -0.5, y: -9.81, z: -1)),
    ]

    @Test(arguments: applications)
    func appliesMTimesV(text: String, raw: Vector3, corrected: Vector3) throws {
        let matrix = try MountMatrix(parsing: text)
        #expect(matrix.apply(to: raw) == corrected)
    }

    @Test func correctsASensorToThePanelFrame() throws {
        // TESTING.md's emulated sensor: raw (0, −1000, 0) counts through "0, -1, 0; 1, 0, 0; 0, 0, 1"
        // reads (1000, 0, 0): x ≈ +g, the left-up pose of ORIENTATION.md.
        let matrix = try MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1")
        #expect(matrix.apply(to: Vector3(x: 0, y: -1000, z: 0)) == Vector3(x: 1000, y: 0, z: 0))
    }
}
