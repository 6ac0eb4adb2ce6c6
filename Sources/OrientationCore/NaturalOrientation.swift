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

/// The shape of the panel in its natural (rotation 0) position.
///
/// Laptops and most convertibles are landscape-native; phones and some tablets are portrait-native.
/// The geometric names of the device orientations depend on it (ORIENTATION.md).
public enum NaturalOrientation: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case landscape
    case portrait

    /// Parses the wire name (`landscape`, `portrait`).
    public init?(wireName: some StringProtocol) {
        self.init(rawValue: String(wireName))
    }

    /// The name used on the wire, in configuration files and on the command line.
    public var wireName: String { rawValue }

    public var description: String { rawValue }
}
