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

@Suite struct EventLoopTests {
    @Test(arguments: [Int32(0), 7, -3])
    func exitFromAHandlerEndsRunWithItsCode(code: Int32) throws {
        let loop = try EventLoop()
        let timer = try loop.addTimer(at: loop.now) { loop.exit(code: code) }
        #expect(try loop.run() == code)
        #expect(try loop.runOnce(timeout: 0) == false)
        withExtendedLifetime(timer) {}
    }

    @Test func runOnceReturnsAfterTheTimeoutWhenNothingIsReady() throws {
        let loop = try EventLoop()
        let pipe = try TestPipe()
        var calls = 0
        let io = try loop.addIO(fd: pipe.readEnd, events: .readable) { _ in calls += 1 }
        let timer = try loop.addTimer(at: loop.now + 3600) { calls += 1 }
        #expect(try loop.runOnce(timeout: 0.01) == true)
        #expect(calls == 0)
        withExtendedLifetime((io, timer)) {}
    }

    @Test func nowIsCachedWithinAnIterationAndIncreasesAcrossIterations() throws {
        let loop = try EventLoop()
        let beforeFirstIteration = loop.now
        try loop.runOnce(timeout: 0)
        let first = loop.now
        #expect(first >= beforeFirstIteration)
        usleep(2000)
        #expect(loop.now == first)
        try loop.runOnce(timeout: 0)
        #expect(loop.now > first)
    }

    @Test(.enabled(if: getenv("WATCHDOG_USEC") == nil))
    func watchdogIsOffWithoutAServiceManager() throws {
        let loop = try EventLoop()
        #expect(try loop.setWatchdog(true) == false)
        #expect(try loop.setWatchdog(false) == false)
    }

    @Test(arguments: [Int32(-1), unopenedDescriptor()])
    func anInvalidDescriptorIsAnErrorNamingAddIO(fd: Int32) throws {
        let loop = try EventLoop()
        let error = #expect(throws: EventLoopError.self) {
            try loop.addIO(fd: fd, events: .readable) { _ in }
        }
        #expect(error?.operation == "sd_event_add_io")
        #expect(error?.errno == Errno(EBADF))
        #expect(error?.description == "sd_event_add_io(fd \(fd)): Bad file descriptor")
    }

    /// A descriptor that no test can have open: the soft limit itself (open descriptors are below it).
    ///
    /// A closed pipe's number would do too, but a test running in parallel may reuse it at once.
    static func unopenedDescriptor() -> Int32 {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        return Int32(clamping: limit.rlim_cur)
    }
}
