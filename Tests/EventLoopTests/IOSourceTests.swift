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
import Testing

@Suite struct IOSourceTests {
    @Test func aWrittenByteRunsTheReadableHandlerWhichReadsIt() throws {
        let loop = try EventLoop()
        let pipe = try TestPipe()
        var seen: [IOEvents] = []
        var bytesRead = 0
        let source = try loop.addIO(fd: pipe.readEnd, events: .readable) { events in
            seen.append(events)
            bytesRead += pipe.drain()
        }
        try loop.runOnce(timeout: 0)
        #expect(seen.isEmpty)

        try pipe.writeByte()
        try loop.runOnce(timeout: 1)
        #expect(seen == [.readable])
        #expect(bytesRead == 1)

        try loop.runOnce(timeout: 0)
        #expect(seen.count == 1)
        withExtendedLifetime(source) {}
    }

    @Test func disablingStopsTheCallbacksAndEnablingResumesThem() throws {
        let loop = try EventLoop()
        let pipe = try TestPipe()
        try pipe.writeByte()
        var calls = 0
        let source = try loop.addIO(fd: pipe.readEnd, events: .readable) { _ in calls += 1 }
        #expect(source.isEnabled)

        source.isEnabled = false
        #expect(!source.isEnabled)
        try loop.runOnce(timeout: 0.01)
        #expect(calls == 0)

        source.isEnabled = true
        try loop.runOnce(timeout: 1)
        try loop.runOnce(timeout: 1)
        // Level-triggered: the unread byte keeps the source ready.
        #expect(calls == 2)
    }

    @Test func changingTheEventsToWritableReportsWritability() throws {
        let loop = try EventLoop()
        let pipe = try TestPipe()
        var seen: [IOEvents] = []
        let source = try loop.addIO(fd: pipe.writeEnd, events: .readable) { events in seen.append(events) }
        try loop.runOnce(timeout: 0)
        #expect(seen.isEmpty)

        source.events = .writable
        #expect(source.events == .writable)
        try loop.runOnce(timeout: 1)
        #expect(seen == [.writable])
    }

    @Test func aClosedWriteEndIsReportedAsHangUp() throws {
        let loop = try EventLoop()
        let pipe = try TestPipe()
        var seen: IOEvents = []
        let source = try loop.addIO(fd: pipe.readEnd, events: .readable) { events in seen = events }
        pipe.closeWriteEnd()
        try loop.runOnce(timeout: 1)
        #expect(seen.contains(.hangUp))
        withExtendedLifetime(source) {}
    }

    @Test func aHandlerCanReleaseItsOwnSource() throws {
        let loop = try EventLoop()
        let pipe = try TestPipe()
        try pipe.writeByte()
        var calls = 0
        var source: IOSource?
        source = try loop.addIO(fd: pipe.readEnd, events: .readable) { _ in
            calls += 1
            source = nil
        }
        weak let released = source
        try loop.runOnce(timeout: 1)
        #expect(calls == 1)
        #expect(released == nil)

        // The byte is still unread: a source that survived would run again.
        try loop.runOnce(timeout: 0.01)
        #expect(calls == 1)
    }

    @Test func releasingASourceStopsItsCallbacks() throws {
        let loop = try EventLoop()
        let pipe = try TestPipe()
        try pipe.writeByte()
        var calls = 0
        var source: IOSource? = try loop.addIO(fd: pipe.readEnd, events: .readable) { _ in calls += 1 }
        try loop.runOnce(timeout: 1)
        #expect(calls == 1)
        #expect(source?.isEnabled == true)

        source = nil
        try loop.runOnce(timeout: 0.01)
        #expect(calls == 1)
    }
}
