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

/// A request the policy refuses; nothing changed.
public struct PolicyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why it was refused.
    public enum Reason: Sendable, Hashable {
        /// The change would allow no orientation at all.
        case emptyMask
        /// There is no such orientation, or none to take.
        case invalidOrientation(String)
    }

    /// Why it was refused.
    public var reason: Reason

    init(_ reason: Reason) {
        self.reason = reason
    }

    /// The protocol's error code (`empty-mask`, `invalid-orientation`).
    public var code: String {
        switch reason {
        case .emptyMask: "empty-mask"
        case .invalidOrientation: "invalid-orientation"
        }
    }

    public var description: String {
        switch reason {
        case .emptyMask:
            "the change would allow no orientation: the configured orientations, the lock and the clients' constraints have none in common"
        case .invalidOrientation(let message):
            message
        }
    }
}
