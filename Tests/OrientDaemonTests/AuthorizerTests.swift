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

import Logging
import SystemSupport
import Testing

@testable import OrientDaemon

#if canImport(Glibc)
import Glibc
#endif

/// These tests expect the Debian/Ubuntu user database: `nobody` is uid 65534 with primary group `nogroup` (65534),
/// and is in no other group.
@Suite struct AuthorizerTests {
    static let nobody = PeerCredentials(processID: 1234, userID: 65534, groupID: 65534)
    static let missingGroup = "orientd-test-no-such-group"

    @Test func rootIsAController() {
        let authorizer = Authorizer(group: nil, seatUsers: false, logger: RecordingLog().logger)
        let root = PeerCredentials(processID: 1, userID: 0, groupID: 0)
        #expect(authorizer.isController(root))
        #expect(authorizer.explain(root) == "uid 0 (root) is root")
    }

    @Test func missingGroupIsSkippedWithOneNotice() {
        let log = RecordingLog()
        let authorizer = Authorizer(group: Self.missingGroup, seatUsers: false, logger: log.logger)
        #expect(!authorizer.isController(Self.nobody))
        #expect(!authorizer.isController(Self.nobody))
        #expect(
            authorizer.explain(Self.nobody)
                == "uid 65534 (nobody) is not root, group '\(Self.missingGroup)' does not exist, and seat users are "
                + "not admitted (SeatUsers=no); ask an administrator to create the group and add you: "
                + "groupadd \(Self.missingGroup) && usermod -aG \(Self.missingGroup) nobody"
        )
        let notices = log.records(atLeast: .notice)
        #expect(notices.count == 1, "logged at init only, not per call: \(notices)")
        #expect(notices.first?.level == .notice)
        #expect(notices.first?.metadata["group"] == "\(Self.missingGroup)")
    }

    @Test func primaryGroupAdmits() {
        let log = RecordingLog()
        let authorizer = Authorizer(group: "nogroup", seatUsers: false, logger: log.logger)
        #expect(authorizer.isController(Self.nobody))
        #expect(authorizer.explain(Self.nobody) == "uid 65534 (nobody) is in group 'nogroup' (its primary group)")
        #expect(log.records(atLeast: .notice).isEmpty)
    }

    @Test func groupMembershipAdmits() {
        // The process runs with another group, but the user database puts nobody in nogroup.
        let peer = PeerCredentials(processID: 1234, userID: 65534, groupID: 4_000_000)
        let authorizer = Authorizer(group: "nogroup", seatUsers: false, logger: RecordingLog().logger)
        #expect(authorizer.isController(peer))
        #expect(authorizer.explain(peer) == "uid 65534 (nobody) is a member of group 'nogroup'")
    }

    @Test func existingGroupWithoutTheUserRefuses() {
        let authorizer = Authorizer(group: "root", seatUsers: false, logger: RecordingLog().logger)
        #expect(!authorizer.isController(Self.nobody))
        #expect(
            authorizer.explain(Self.nobody)
                == "uid 65534 (nobody) is not root, not in group 'root', and seat users are not admitted "
                + "(SeatUsers=no); ask an administrator to add you to the group: usermod -aG root nobody"
        )
    }

    @Test func unknownUserHasOnlyItsProcessGroup() {
        let stranger = PeerCredentials(processID: 1234, userID: 4_000_000, groupID: 4_000_000)
        let authorizer = Authorizer(group: "nogroup", seatUsers: false, logger: RecordingLog().logger)
        #expect(!authorizer.isController(stranger))
        let explanation = authorizer.explain(stranger)
        #expect(explanation.hasPrefix("uid 4000000 is not root, not in group 'nogroup' (no user has this uid), and"))
        #expect(explanation.hasSuffix("usermod -aG nogroup USER"))
        #expect(authorizer.isController(PeerCredentials(processID: 1234, userID: 4_000_000, groupID: 65534)))
    }

    @Test(arguments: [nil, ""])
    func noGroupConfigured(group: String?) {
        let log = RecordingLog()
        let authorizer = Authorizer(group: group, seatUsers: false, logger: log.logger)
        #expect(!authorizer.isController(Self.nobody))
        #expect(authorizer.explain(Self.nobody).contains("is not root, no control group is configured, and"))
        #expect(log.records(atLeast: .notice).isEmpty)
    }

    @Test(arguments: [
        (true, SeatSessionStatus.active, true, "uid 65534 (nobody) has an active session on a seat"),
        (true, .none, false, "has no active seat session;"),
        (true, .unavailable("no bus"), false, "cannot be checked for a seat session (no bus);"),
        (false, .active, false, "seat users are not admitted (SeatUsers=no);"),
    ])
    func seatRule(seatUsers: Bool, status: SeatSessionStatus, admitted: Bool, explanation: String) {
        let seats = FakeSeatSessions(unavailableReason: nil, answer: status)
        let authorizer = Authorizer(
            group: Self.missingGroup,
            seatUsers: seatUsers,
            logger: RecordingLog().logger,
            seats: seats
        )
        #expect(authorizer.isController(Self.nobody) == admitted)
        #expect(authorizer.explain(Self.nobody).contains(explanation), "\(authorizer.explain(Self.nobody))")
    }

    @Test(arguments: [true, false])
    func unavailableSeatsAreNoticedOnceWhenTheRuleIsOn(seatUsers: Bool) {
        let log = RecordingLog()
        let seats = FakeSeatSessions(unavailableReason: "no logind", answer: .unavailable("no logind"))
        let authorizer = Authorizer(group: nil, seatUsers: seatUsers, logger: log.logger, seats: seats)
        #expect(!authorizer.isController(Self.nobody))
        let notices = log.records(atLeast: .notice)
        #expect(notices.count == (seatUsers ? 1 : 0))
        #expect(notices.first.map { $0.metadata["reason"] == "no logind" } ?? true)
    }

    @Test func realSeatRuleIsSkippedGracefully() {
        let authorizer = Authorizer(group: nil, seatUsers: true, logger: RecordingLog().logger)
        // Nobody never sits at a seat, with or without logind.
        #expect(!authorizer.isController(Self.nobody))
        let explanation = authorizer.explain(Self.nobody)
        if listDirectory("/run/systemd/seats").isEmpty {
            #expect(explanation.contains("seat session (no seats: systemd-logind is not running)"))
        } else {
            #expect(explanation.contains("has no active seat session"))
        }
    }

    @Test func peerCredentialsOfASocketPair() throws {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let expected = PeerCredentials(processID: getpid(), userID: getuid(), groupID: getgid())
        #expect(try PeerCredentials.of(socket: FileDescriptor(rawValue: fds[0])) == expected)
        #expect(try PeerCredentials.of(socket: FileDescriptor(rawValue: fds[1])) == expected)
    }

    @Test func peerCredentialsOfANonSocketThrow() throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        defer {
            close(fds[0])
            close(fds[1])
        }
        let error = #expect(throws: PeerCredentialsError.self) {
            try PeerCredentials.of(socket: FileDescriptor(rawValue: fds[0]))
        }
        #expect(error?.errno == Errno(ENOTSOCK))
        #expect(error?.description == "getsockopt(fd \(fds[0]), SO_PEERCRED): Socket operation on non-socket")
        let closed = #expect(throws: PeerCredentialsError.self) {
            try PeerCredentials.of(socket: FileDescriptor(rawValue: -1))
        }
        #expect(closed?.errno == .badFileDescriptor)
    }
}
