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

/// Where seat sessions are looked up: logind, or a fake in tests.
protocol SeatSessions: Sendable {
    /// Why seats cannot be asked about at all, or nil when they can.
    var unavailableReason: String? { get }
    /// Whether the user has an active session on a seat.
    func status(ofUser userID: UInt32) -> SeatSessionStatus
}
