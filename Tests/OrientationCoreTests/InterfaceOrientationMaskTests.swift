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

/// The masks of ORIENTATION.md, "Masks, lock and constraints", and their normalised listing
/// (PROTOCOL.md: portrait, portrait-upside-down, landscape-left, landscape-right).
@Suite struct InterfaceOrientationMaskTests {
    static let namedMasks: [(String, [InterfaceOrientation])] = [
        ("portrait", [.portrait]),
        ("portrait-upside-down", [.portraitUpsideDown]),
        ("landscape-left", [.landscapeLeft]),
        ("landscape-right", [.landscapeRight]),
        ("landscape", [.landscapeLeft, .landscapeRight]),
        ("all", [.portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight]),
        ("all-but-upside-down", [.portrait, .landscapeLeft, .landscapeRight]),
    ]

    @Test(arguments: namedMasks)
    func namedMaskHoldsItsOrientations(name: String, orientations: [InterfaceOrientation]) throws {
        let byName = try #require(InterfaceOrientationMask(name: name))
        #expect(byName.orientations == orientations)
        #expect(try InterfaceOrientationMask(parsing: name) == byName)
        for orientation in InterfaceOrientation.allCases {
            #expect(byName.contains(orientation) == orientations.contains(orientation), "\(name) ∋ \(orientation)")
        }
    }

    @Test func staticMasksMatchTheirNames() {
        #expect(InterfaceOrientationMask.landscape == [.landscapeLeft, .landscapeRight])
        #expect(InterfaceOrientationMask.all == [.portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight])
        #expect(InterfaceOrientationMask.allButUpsideDown == [.portrait, .landscapeLeft, .landscapeRight])
    }

    static let lists: [(String, [InterfaceOrientation])] = [
        ("portrait landscape-left", [.portrait, .landscapeLeft]),
        ("portrait, landscape", [.portrait, .landscapeLeft, .landscapeRight]),
        ("portrait,landscape-right", [.portrait, .landscapeRight]),
        ("  landscape-right   portrait-upside-down ", [.portraitUpsideDown, .landscapeRight]),
        ("landscape, landscape-left", [.landscapeLeft, .landscapeRight]),
        (
            "portrait-upside-down all-but-upside-down",
            [.portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight]
        ),
    ]

    @Test(arguments: lists)
    func listIsTheUnionOfItsNames(text: String, orientations: [InterfaceOrientation]) throws {
        #expect(try InterfaceOrientationMask(parsing: text).orientations == orientations)
    }

    @Test func listOfNamesIsTheUnion() throws {
        let mask = try InterfaceOrientationMask(names: ["landscape-left", "portrait"])
        #expect(mask == [.portrait, .landscapeLeft])
    }

    static let unknownNames: [(String, String)] = [
        ("sideways", "sideways"),
        ("portrait, sideways", "sideways"),
        ("landscape upside-down", "upside-down"),
        ("Portrait", "Portrait"),
        ("face-up", "face-up"),
        ("unknown", "unknown"),
        ("landscape_left", "landscape_left"),
    ]

    @Test(arguments: unknownNames)
    func unknownNameIsRejectedNamingIt(text: String, offending: String) {
        #expect(InterfaceOrientationMask(name: text) == nil)
        let error = #expect(throws: UnknownMaskNameError.self) { try InterfaceOrientationMask(parsing: text) }
        #expect(error?.name == offending)
        #expect(error.map { String(describing: $0).contains("'\(offending)'") } == true)
    }

    @Test func listingOrderIsNormalised() throws {
        let mask = try InterfaceOrientationMask(
            parsing: "landscape-right, landscape-left portrait-upside-down,portrait"
        )
        #expect(mask.wireNames == ["portrait", "portrait-upside-down", "landscape-left", "landscape-right"])
        #expect(String(describing: mask) == "portrait portrait-upside-down landscape-left landscape-right")
        let two = try InterfaceOrientationMask(parsing: "landscape-right portrait")
        #expect(two.wireNames == ["portrait", "landscape-right"])
    }

    @Test(arguments: [InterfaceOrientationMask.all, .landscape, .portrait, []])
    func unknownIsInNoMask(mask: InterfaceOrientationMask) {
        #expect(!mask.contains(.unknown))
        #expect(!mask.orientations.contains(.unknown))
    }

    @Test func maskOfOneOrientation() {
        #expect(InterfaceOrientationMask(.portrait).orientations == [.portrait])
        #expect(InterfaceOrientationMask(.landscapeRight).orientations == [.landscapeRight])
        #expect(InterfaceOrientationMask(.unknown).isEmpty)
    }

    @Test func emptyListOfNamesIsTheEmptyMask() throws {
        // PROTOCOL.md: `"mask": []` is an empty mask (refused later as `empty-mask`).
        #expect(try InterfaceOrientationMask(names: [String]()).isEmpty)
    }
}
