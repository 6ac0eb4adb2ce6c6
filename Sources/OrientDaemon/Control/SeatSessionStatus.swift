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

/// Whether a user is at a seat now.
enum SeatSessionStatus: Sendable, Hashable {
    /// The user has an active session on a seat.
    case active
    /// The user has no active session on any seat.
    case none
    /// Seats cannot be asked about (no logind, an error); the reason in words.
    case unavailable(String)

    /// Why a user in this state is not admitted as a seat user, in words; nil for `.active`.
    var denial: String? {
        switch self {
        case .active: nil
        case .none: "has no active seat session"
        case .unavailable(let reason): "cannot be checked for a seat session (\(reason))"
        }
    }
}
