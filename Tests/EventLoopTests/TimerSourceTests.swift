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

@testable import EventLoop

@Suite struct TimerSourceTests {
    @Test func aOneShotTimerFiresOnceAndTurnsItselfOff() throws {
        let loop = try EventLoop()
        var calls = 0
        let timer = try loop.addTimer(at: loop.now) { calls += 1 }
        try loop.runOnce(timeout: 1)
        #expect(calls == 1)
        #expect(!timer.isEnabled)

        try loop.runOnce(timeout: 0.02)
        #expect(calls == 1)
    }

    @Test func reschedulingArmsTheTimerAgain() throws {
        let loop = try EventLoop()
        var calls = 0
        let timer = try loop.addTimer(at: loop.now + 3600) { calls += 1 }
        try loop.runOnce(timeout: 0)
        #expect(calls == 0)

        timer.schedule(at: loop.now)
        try loop.runOnce(timeout: 1)
        #expect(calls == 1)

        timer.schedule(after: 0)
        #expect(timer.isEnabled)
        try loop.runOnce(timeout: 1)
        #expect(calls == 2)
    }

    @Test func reschedulingLaterPostponesADueTimer() throws {
        let loop = try EventLoop()
        var calls = 0
        let timer = try loop.addTimer(at: loop.now) { calls += 1 }
        timer.schedule(after: 3600)
        try loop.runOnce(timeout: 0.02)
        #expect(calls == 0)
        #expect(timer.isEnabled)
    }

    @Test func aDisabledTimerDoesNotFire() throws {
        let loop = try EventLoop()
        var calls = 0
        let timer = try loop.addTimer(at: loop.now) { calls += 1 }
        timer.isEnabled = false
        try loop.runOnce(timeout: 0.02)
        #expect(calls == 0)
    }

    @Test func aRepeatingTimerFiresUntilTheLoopExits() throws {
        let loop = try EventLoop()
        var calls = 0
        let timer = try loop.addRepeatingTimer(interval: 0.005) {
            calls += 1
            if calls == 5 { loop.exit(code: 0) }
        }
        #expect(try loop.run() == 0)
        #expect(calls == 5)
        #expect(timer.isEnabled)
    }

    @Test func aRepeatingTimerCanReleaseItselfFromItsHandler() throws {
        let loop = try EventLoop()
        var calls = 0
        var timer: TimerSource?
        timer = try loop.addRepeatingTimer(interval: 0.001) {
            calls += 1
            if calls == 3 { timer = nil }
        }
        weak let released = timer
        for _ in 0..<3 { try loop.runOnce(timeout: 1) }
        #expect(calls == 3)
        #expect(released == nil)

        try loop.runOnce(timeout: 0.02)
        #expect(calls == 3)
    }

    @Test func aRepeatingTimerStopsWhenDisabledFromItsHandler() throws {
        let loop = try EventLoop()
        var calls = 0
        var timer: TimerSource?
        timer = try loop.addRepeatingTimer(interval: 0.001) {
            calls += 1
            timer?.isEnabled = false
        }
        try loop.runOnce(timeout: 1)
        try loop.runOnce(timeout: 0.02)
        #expect(calls == 1)
        #expect(timer?.isEnabled == false)
        timer = nil  // The handler captures the variable: break the cycle.
    }

    /// (previous deadline, interval, now, expected next deadline), in microseconds.
    @Test(arguments: [
        (UInt64(1000), UInt64(100), UInt64(1050), UInt64(1100)),  // on time
        (1000, 100, 1100, 1100),  // the next firing is due right now: keep it
        (1000, 100, 1101, 1200),  // more than one interval behind: skip the missed firing
        (1000, 100, 1350, 1400),  // several behind: the first grid point after now
        (1000, 100, 1400, 1500),
        (UInt64.max - 50, 100, 0, UInt64.max),  // the deadline overflows: never
    ])
    func theNextDeadlineStaysOnTheGridAndSkipsMissedFirings(
        previous: UInt64,
        interval: UInt64,
        now: UInt64,
        expected: UInt64
    ) {
        #expect(TimerSource.nextDeadline(after: previous, interval: interval, now: now) == expected)
    }
}
