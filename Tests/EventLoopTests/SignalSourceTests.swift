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

import EventLoop
import Glibc
import SystemSupport
import Testing

@Suite struct SignalSourceTests {
    @Test func aBlockedSignalIsDeliveredThroughTheLoop() throws {
        try SignalMask.withBlocked(SIGUSR1) {
            let loop = try EventLoop()
            var calls = 0
            let source = try loop.addSignal(SIGUSR1) { calls += 1 }
            try loop.runOnce(timeout: 0)
            #expect(calls == 0)

            pthread_kill(pthread_self(), SIGUSR1)
            try loop.runOnce(timeout: 1)
            #expect(calls == 1)

            let second = #expect(throws: EventLoopError.self) { try loop.addSignal(SIGUSR1) {} }
            #expect(second?.errno == Errno(EBUSY))
            withExtendedLifetime(source) {}
        }
    }

    @Test func aDisabledSignalSourceLeavesTheSignalPending() throws {
        try SignalMask.withBlocked(SIGUSR1) {
            let loop = try EventLoop()
            var calls = 0
            let source = try loop.addSignal(SIGUSR1) { calls += 1 }
            source.isEnabled = false
            pthread_kill(pthread_self(), SIGUSR1)
            try loop.runOnce(timeout: 0.01)
            #expect(calls == 0)

            source.isEnabled = true
            try loop.runOnce(timeout: 1)
            #expect(calls == 1)
        }
    }

    @Test func anUnblockedSignalIsRejectedWithAHint() throws {
        try SignalMask.withUnblocked(SIGUSR2) {
            let loop = try EventLoop()
            let error = #expect(throws: EventLoopError.self) { try loop.addSignal(SIGUSR2) {} }
            #expect(error?.operation == "sd_event_add_signal")
            #expect(error?.errno == Errno(EBUSY))
            #expect(error?.description.contains("pthread_sigmask") == true)
        }
    }
}
