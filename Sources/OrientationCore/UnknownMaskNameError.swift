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

/// A mask or orientation name that is not one of those of ORIENTATION.md.
public struct UnknownMaskNameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name as written.
    public var name: String

    public var description: String {
        let known = InterfaceOrientationMask.namedMasks.map(\.name).joined(separator: ", ")
        return "unknown orientation or mask '\(name)'; expected one of \(known), or a list of them"
    }
}
