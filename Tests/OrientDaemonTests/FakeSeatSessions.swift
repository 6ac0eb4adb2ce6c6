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

@testable import OrientDaemon

/// Seat sessions as a test says they are.
struct FakeSeatSessions: SeatSessions {
    var unavailableReason: String?
    var answer: SeatSessionStatus

    func status(ofUser userID: UInt32) -> SeatSessionStatus { answer }
}
