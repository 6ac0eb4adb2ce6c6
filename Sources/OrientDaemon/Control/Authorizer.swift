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
public import Logging
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Decides who may `lock`, `unlock` and `constrain` (the controllers) from a peer's credentials.
///
/// Controllers are root, members of the configured group (`[Control] Group=`), and, with `SeatUsers=yes`, users
/// with an active session on a seat: the person at the machine, not someone logged in over SSH. A rule that
/// cannot be checked (no such group, no logind) is skipped, never an error. The group is looked up once, here;
/// memberships are looked up on every call, so adding a user to the group takes effect without a restart.
public struct Authorizer: Sendable {
    private let group: GroupRule
    private let seatUsers: Bool
    private let seats: any SeatSessions

    /// An authorizer for the configured group (nil or empty: no group rule) and seat rule.
    ///
    /// A group that does not exist is logged once, as a notice, and its rule skipped.
    public init(group: String?, seatUsers: Bool, logger: Logger) {
        self.init(group: group, seatUsers: seatUsers, logger: logger, seats: LogindSeatSessions())
    }

    /// An authorizer asking `seats` about seat sessions instead of logind.
    init(group: String?, seatUsers: Bool, logger: Logger, seats: any SeatSessions) {
        self.seatUsers = seatUsers
        self.seats = seats
        self.group = GroupRule(name: group)
        switch self.group {
        case .none, .group:
            break
        case .missing(let name, let reason):
            logger.notice(
                "The control group cannot be used; only root and seat users may lock",
                metadata: ["group": "\(name)", "reason": "\(reason)"]
            )
        }
        if seatUsers, let reason = seats.unavailableReason {
            logger.notice(
                "Seat users cannot be recognised; the seat rule is skipped",
                metadata: ["reason": "\(reason)"]
            )
        }
    }

    /// Whether the peer may lock, unlock and constrain.
    public func isController(_ peer: PeerCredentials) -> Bool {
        decide(peer).isAdmitted
    }

    /// Which rule admits the peer, or why none does and what to do about it, for the log and `permission-denied`.
    public func explain(_ peer: PeerCredentials) -> String {
        decide(peer).description
    }

    /// Tries the rules in order: root, then the group, then the seat.
    private func decide(_ peer: PeerCredentials) -> Decision {
        let user = UserRecord(userID: peer.userID)
        let who = "uid \(peer.userID)" + (user.map { " (\($0.name))" } ?? "")
        if peer.userID == 0 {
            return Decision(who: who, admittedBy: "is root")
        }

        let groupDenial: String
        let advice: String
        let userName = user?.name ?? "USER"
        switch group {
        case .none:
            groupDenial = "no control group is configured"
            advice = "ask an administrator to set [Control] Group= in /etc/orientd/orientd.conf and add you to it"
        case .missing(let name, _):
            groupDenial = "group '\(name)' does not exist"
            advice =
                "ask an administrator to create the group and add you: groupadd \(name) && usermod -aG \(name) \(userName)"
        case .group(let name, let groupID):
            if peer.groupID == groupID {
                return Decision(who: who, admittedBy: "is in group '\(name)' (its primary group)")
            }
            if let user, user.groupIDs.contains(groupID) {
                return Decision(who: who, admittedBy: "is a member of group '\(name)'")
            }
            // Without a user entry there is no name to look memberships up by.
            groupDenial = "not in group '\(name)'" + (user == nil ? " (no user has this uid)" : "")
            advice = "ask an administrator to add you to the group: usermod -aG \(name) \(userName)"
        }

        let seatDenial: String
        if !seatUsers {
            seatDenial = "seat users are not admitted (SeatUsers=no)"
        } else {
            switch seats.status(ofUser: peer.userID) {
            case .active:
                return Decision(who: who, admittedBy: "has an active session on a seat")
            case .none:
                seatDenial = "has no active seat session"
            case .unavailable(let reason):
                seatDenial = "cannot be checked for a seat session (\(reason))"
            }
        }
        return Decision(who: who, denial: "is not root, \(groupDenial), and \(seatDenial); \(advice)")
    }
}

/// The outcome of the rules for one peer, in words.
private struct Decision: CustomStringConvertible {
    var isAdmitted: Bool
    var description: String

    init(who: String, admittedBy rule: String) {
        isAdmitted = true
        description = "\(who) \(rule)"
    }

    init(who: String, denial: String) {
        isAdmitted = false
        description = "\(who) \(denial)"
    }
}

/// The group rule as configured and found at start.
private enum GroupRule: Sendable {
    /// No group configured.
    case none
    /// A group configured but not usable: it does not exist, or the lookup failed.
    case missing(name: String, reason: String)
    /// The group and its ID.
    case group(name: String, groupID: UInt32)

    /// Looks the group up (`getgrnam_r`).
    init(name: String?) {
        guard let name, !name.isEmpty else {
            self = .none
            return
        }
        do {
            if let found = try NameService.group(named: name) {
                self = .group(name: name, groupID: found.groupID)
            } else {
                self = .missing(name: name, reason: "no such group")
            }
        } catch {
            self = .missing(name: name, reason: "getgrnam_r: \(error)")
        }
    }
}

/// A user's name and every group it belongs to, from the user and group databases (NSS).
private struct UserRecord {
    var name: String
    /// The primary group of the user's entry and the groups listing the user as a member.
    var groupIDs: [UInt32]

    /// The user with this ID (`getpwuid_r`, then `getgrouplist`); nil when there is none or the lookup failed.
    init?(userID: UInt32) {
        guard let found = try? NameService.user(id: userID) else { return nil }
        name = found.name
        groupIDs = NameService.groupIDs(of: found)
    }
}

/// Whether a user is at a seat now.
enum SeatSessionStatus: Sendable, Hashable {
    /// The user has an active session on a seat.
    case active
    /// The user has no active session on any seat.
    case none
    /// Seats cannot be asked about (no logind, an error); the reason in words.
    case unavailable(String)
}

/// Where seat sessions are looked up: logind, or a fake in tests.
protocol SeatSessions: Sendable {
    /// Why seats cannot be asked about at all, or nil when they can.
    var unavailableReason: String? { get }
    /// Whether the user has an active session on a seat.
    func status(ofUser userID: UInt32) -> SeatSessionStatus
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
