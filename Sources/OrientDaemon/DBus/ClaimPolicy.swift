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

import SystemSupport

/// Decides who may claim a sensor on the bus, as iio-sensor-proxy's polkit policy does, plus `[DBus] ClaimUsers=`.
///
/// A claim is allowed for root, for the user of an active session on a seat (the person at the machine; the
/// seat-session logic of the control socket's ``Authorizer``), and for the system users named in `ClaimUsers=`
/// (geoclue's, which reads the compass without any session). Names are compared with the sender's user entry on each
/// call, so a user created after the daemon started is recognised.
struct ClaimPolicy: Sendable {
    /// The outcome for one sender, in words for the log and the `AccessDenied` message.
    struct Decision: Sendable, Equatable {
        var isAllowed: Bool
        var reason: String
    }

    /// `[DBus] ClaimUsers=`.
    let users: [String]
    private let seats: any SeatSessions

    /// A policy for these users, asking logind about seat sessions.
    init(users: [String]) {
        self.init(users: users, seats: LogindSeatSessions())
    }

    /// A policy asking `seats` about seat sessions instead of logind.
    init(users: [String], seats: any SeatSessions) {
        self.users = users
        self.seats = seats
    }

    /// The allowance that needs no one else's word: root, and the users of `ClaimUsers=` (a system service such as
    /// geoclue, without any session). Nil: polkit, or else ``decide(userID:)``, decides.
    func decideWithoutPolkit(userID: UInt32) -> Decision? {
        let name = (try? NameService.user(id: userID))?.name
        let who = Self.describe(userID, name)
        if userID == 0 { return Decision(isAllowed: true, reason: "\(who) is root") }
        if let name, users.contains(name) {
            return Decision(isAllowed: true, reason: "\(who) is in [DBus] ClaimUsers=")
        }
        return nil
    }

    /// The refusal of a claim that polkit does not authorize, with what to do.
    func polkitDenial(userID: UInt32) -> Decision {
        let who = Self.describe(userID, (try? NameService.user(id: userID))?.name)
        return Decision(
            isAllowed: false,
            reason: "\(who) may not claim sensors: polkit does not authorize \(PolkitAuthority.action) for it "
                + "(by default only an active local session is); a polkit rule in /etc/polkit-1/rules.d can allow "
                + "it, or, for a system service without a session, [DBus] ClaimUsers= in /etc/orientd/orientd.conf"
        )
    }

    /// Whether the user `userID` may claim sensors by orientd's own rules, and why: where polkit does not answer.
    func decide(userID: UInt32) -> Decision {
        if let decision = decideWithoutPolkit(userID: userID) { return decision }
        let who = Self.describe(userID, (try? NameService.user(id: userID))?.name)
        guard let seatDenial = seats.status(ofUser: userID).denial else {
            return Decision(isAllowed: true, reason: "\(who) has an active session on a seat")
        }
        let listed = users.isEmpty ? "none" : users.joined(separator: " ")
        return Decision(
            isAllowed: false,
            reason: "\(who) may not claim sensors: it is not root, \(seatDenial), and is not in [DBus] ClaimUsers= "
                + "(\(listed)); a system service that needs the sensors without a session: add its user to "
                + "ClaimUsers= in /etc/orientd/orientd.conf and reload orientd"
        )
    }

    private static func describe(_ userID: UInt32, _ name: String?) -> String {
        "uid \(userID)" + (name.map { " (\($0))" } ?? "")
    }
}
