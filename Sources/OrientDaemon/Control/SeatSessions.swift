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

import CSystemd
import SystemSupport

/// Where seat sessions are looked up: logind, or a fake in tests.
protocol SeatSessions: Sendable {
    /// Why seats cannot be asked about at all, or nil when they can.
    var unavailableReason: String? { get }
    /// Whether the user has an active session on a seat.
    func status(ofUser userID: UInt32) -> SeatSessionStatus
}

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

/// Seat sessions from systemd-logind through sd-login.
///
/// Not `sd_uid_is_on_seat(uid, 1, NULL)`: a NULL seat means the seat of the caller's own session, and a system
/// service has none, so that call always fails with `ENODATA` in the daemon.
struct LogindSeatSessions: SeatSessions {
    /// nil while logind knows at least one seat. It always creates `seat0`, so no seat means it is not running;
    /// sd-login would then answer "no session" for everyone and the rule would wrongly read as checked.
    var unavailableReason: String? {
        let seats = sd_get_seats(nil)
        if seats < 0 { return "sd_get_seats: \(Errno(seats))" }
        return seats == 0 ? "no seats: systemd-logind is not running" : nil
    }

    /// `sd_uid_get_seats(uid, 1, NULL)`: the number of seats where the user's session is the active one.
    func status(ofUser userID: UInt32) -> SeatSessionStatus {
        if let reason = unavailableReason { return .unavailable(reason) }
        let result = sd_uid_get_seats(userID, 1, nil)
        if result > 0 { return .active }
        if result == 0 { return .none }
        return .unavailable("sd_uid_get_seats: \(Errno(result))")
    }
}
