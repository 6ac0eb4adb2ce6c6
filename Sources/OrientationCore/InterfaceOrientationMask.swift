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

/// A set of interface orientations (iOS's UIInterfaceOrientationMask).
///
/// Written as a named mask (`portrait`, `portrait-upside-down`, `landscape-left`, `landscape-right`,
/// `landscape`, `all`, `all-but-upside-down`) or as a list of them.
public struct InterfaceOrientationMask: OptionSet, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) {
        self.rawValue = rawValue & 0b1111
    }

    public static let portrait = Self(rawValue: 1 << 0)
    public static let portraitUpsideDown = Self(rawValue: 1 << 1)
    public static let landscapeLeft = Self(rawValue: 1 << 2)
    public static let landscapeRight = Self(rawValue: 1 << 3)
    public static let landscape: Self = [.landscapeLeft, .landscapeRight]
    public static let all: Self = [.portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight]
    public static let allButUpsideDown: Self = [.portrait, .landscapeLeft, .landscapeRight]

    /// The names a mask may be written with, and what each stands for.
    public static let namedMasks: [(name: String, mask: Self)] = [
        ("portrait", .portrait),
        ("portrait-upside-down", .portraitUpsideDown),
        ("landscape-left", .landscapeLeft),
        ("landscape-right", .landscapeRight),
        ("landscape", .landscape),
        ("all", .all),
        ("all-but-upside-down", .allButUpsideDown),
    ]

    /// The order in which masks are listed: portrait, portrait-upside-down, landscape-left, landscape-right.
    public static let listingOrder: [InterfaceOrientation] = [
        .portrait, .portraitUpsideDown, .landscapeLeft, .landscapeRight,
    ]

    /// The mask holding one orientation; empty for `unknown`.
    public init(_ orientation: InterfaceOrientation) {
        switch orientation {
        case .unknown: self = []
        case .portrait: self = .portrait
        case .portraitUpsideDown: self = .portraitUpsideDown
        case .landscapeLeft: self = .landscapeLeft
        case .landscapeRight: self = .landscapeRight
        }
    }

    /// The mask with one name (`landscape`, `all`, …); nil for an unknown name.
    public init?(name: some StringProtocol) {
        guard let entry = Self.namedMasks.first(where: { $0.name == name }) else { return nil }
        self = entry.mask
    }

    /// The union of the named masks; the first unknown name is thrown. An empty list gives the empty mask.
    public init(names: some Sequence<some StringProtocol>) throws(UnknownMaskNameError) {
        var mask: Self = []
        for name in names {
            guard let part = Self(name: name) else { throw UnknownMaskNameError(name: String(name)) }
            mask.formUnion(part)
        }
        self = mask
    }

    /// Parses a mask written as one name or a list of names separated by spaces or commas
    /// (`landscape`, `portrait landscape-left`, `portrait, landscape`).
    public init(parsing text: some StringProtocol) throws(UnknownMaskNameError) {
        let names = text.split { $0 == " " || $0 == "," || $0 == "\t" }
        guard !names.isEmpty else { throw UnknownMaskNameError(name: String(text)) }
        try self.init(names: names)
    }

    /// Whether the mask holds the orientation (never `unknown`).
    public func contains(_ orientation: InterfaceOrientation) -> Bool {
        orientation != .unknown && contains(Self(orientation))
    }

    /// The orientations in the mask, in listing order.
    public var orientations: [InterfaceOrientation] {
        Self.listingOrder.filter { contains($0) }
    }

    /// The wire names of the orientations in the mask, in listing order.
    public var wireNames: [String] {
        orientations.map(\.wireName)
    }

    public var description: String {
        isEmpty ? "none" : wireNames.joined(separator: " ")
    }
}

/// A mask or orientation name that is not one of those of ORIENTATION.md.
public struct UnknownMaskNameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name as written.
    public var name: String

    public var description: String {
        let known = InterfaceOrientationMask.namedMasks.map(\.name).joined(separator: ", ")
        return "unknown orientation or mask '\(name)'; expected one of \(known), or a list of them"
    }
}
