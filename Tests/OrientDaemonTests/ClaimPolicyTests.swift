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

import Testing

@testable import OrientDaemon

/// Who may claim a sensor on the bus. These tests expect `nobody` to be uid 65534 (Debian/Ubuntu).
@Suite struct ClaimPolicyTests {
    static let nobody: UInt32 = 65534
    static let noSession = FakeSeatSessions(unavailableReason: nil, answer: .none)

    @Test func rootMayClaimWhateverTheList() {
        let decision = ClaimPolicy(users: [], seats: Self.noSession).decide(userID: 0)
        #expect(decision.isAllowed, "\(decision.reason)")
        #expect(decision.reason.contains("is root"))
    }

    @Test func aListedUserMayClaimWithoutASession() {
        let decision = ClaimPolicy(users: ["geoclue", "nobody"], seats: Self.noSession).decide(userID: Self.nobody)
        #expect(decision.isAllowed, "\(decision.reason)")
        #expect(decision.reason == "uid 65534 (nobody) is in [DBus] ClaimUsers=")
    }

    @Test func theUserOfAnActiveSeatSessionMayClaim() {
        let seats = FakeSeatSessions(unavailableReason: nil, answer: .active)
        let decision = ClaimPolicy(users: [], seats: seats).decide(userID: Self.nobody)
        #expect(decision.isAllowed, "\(decision.reason)")
        #expect(decision.reason.contains("active session on a seat"))
    }

    @Test(arguments: [SeatSessionStatus.none, .unavailable("no logind")])
    func anyoneElseIsRefusedWithWhatToDo(status: SeatSessionStatus) {
        let seats = FakeSeatSessions(unavailableReason: nil, answer: status)
        let decision = ClaimPolicy(users: ["geoclue"], seats: seats).decide(userID: Self.nobody)
        #expect(!decision.isAllowed)
        #expect(decision.reason.hasPrefix("uid 65534 (nobody) may not claim sensors: it is not root, "))
        #expect(decision.reason.contains("ClaimUsers= (geoclue)"), "\(decision.reason)")
        #expect(decision.reason.contains("add its user to ClaimUsers="), "\(decision.reason)")
        if case .unavailable = status { #expect(decision.reason.contains("(no logind)")) }
    }

    @Test func aNameIsNotAnID() {
        // A list of names never admits a user by a number that happens to be written there.
        let decision = ClaimPolicy(users: ["65534"], seats: Self.noSession).decide(userID: Self.nobody)
        #expect(!decision.isAllowed, "\(decision.reason)")
    }
}
