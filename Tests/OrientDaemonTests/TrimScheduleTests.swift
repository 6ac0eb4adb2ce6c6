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

@Suite struct TrimScheduleTests {
    /// A second after the first request; requests while one is armed add nothing.
    @Test func theFirstRequestIsASecondLater() {
        var schedule = TrimSchedule()
        #expect(schedule.request(at: 100) == 101)
        #expect(schedule.request(at: 100.5) == nil, "armed already")
        #expect(schedule.pending == 101)
        schedule.fired(at: 101)
        #expect(schedule.pending == nil && schedule.last == 101)
    }

    /// A device moved every few seconds settles every few seconds: the pages are given back at most every ten.
    @Test func trimsAreTenSecondsApartAtLeast() {
        var schedule = TrimSchedule()
        _ = schedule.request(at: 0)
        schedule.fired(at: 1)
        #expect(schedule.request(at: 3) == 11, "within ten seconds of the last: at its end")
        schedule.fired(at: 11)
        #expect(schedule.request(at: 40) == 41, "long after: a second later")
    }
}
