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
