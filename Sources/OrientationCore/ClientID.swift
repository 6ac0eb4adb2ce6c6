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

/// Identifies one client (a connection to the control socket) to the pure logic.
public struct ClientID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The number the daemon gave the connection.
    public var rawValue: UInt64

    /// A client identifier from its number.
    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (lhs: ClientID, rhs: ClientID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "client \(rawValue)" }
}
