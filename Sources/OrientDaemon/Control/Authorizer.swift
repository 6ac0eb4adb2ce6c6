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

public import Logging
import SystemSupport

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
            guard let denial = seats.status(ofUser: peer.userID).denial else {
                return Decision(who: who, admittedBy: "has an active session on a seat")
            }
            seatDenial = denial
        }
        return Decision(who: who, denial: "is not root, \(groupDenial), and \(seatDenial); \(advice)")
    }
}

extension Authorizer {
    /// The outcome of the rules for one peer, in words.
    struct Decision: CustomStringConvertible {
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
}

extension Authorizer {
    /// A user's name and every group it belongs to, from the user and group databases (NSS).
    struct UserRecord {
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
}
