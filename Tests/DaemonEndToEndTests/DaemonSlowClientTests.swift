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

import OrientdTestKit
import Testing

extension EmulatedDeviceTests {
    /// PROTOCOL.md "Limits and slow clients": a connection whose unsent output passes `OutputLimitKiB=` (256 KiB)
    /// is closed; nobody else waits for it or misses anything.
    ///
    /// Reliability, "slow consumer": a generating client never reads while 10,000 events are made (the issue's full
    /// count). It is dropped exactly at its bound (the change that took its queue past 256 KiB, not one before),
    /// the daemon's peak memory stays within three connections' bounds plus 4 MiB, and the reader gets every event.
    ///
    /// Reliability, "lagging consumer": a generating client that reads, but less than it is sent (below).
    ///
    /// Both run `ORIENTD_RELIABILITY_RUNS` times (``Reliability``).
    @Suite struct DaemonSlowClientTests {
        @Test(arguments: Reliability.runs)
        func aClientThatNeverReadsIsDroppedAtItsBoundAndTheOthersGetEveryEvent(run: Int) async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox())
            let resources = ProcessResources(pid: daemon.process.pid)
            let sluggard = try daemon.connect()
            _ = try await sluggard.call("begin")
            let reader = try daemon.connect()
            _ = try await reader.call("begin")
            let controller = try daemon.connect()
            #expect(try await controller.call("status").result?["clients"]?.integer == 3)
            let residentBefore = resources.residentKiB

            // Each constraint toggle is one change with two events (allowed, interface) of about 400 bytes to
            // each generating connection; the sluggard never reads again.
            let masks = [#"{"mask": "portrait"}"#, #"{"mask": "landscape"}"#]
            var replySeqs: [Int] = []
            // The toggle during whose events the sluggard was dropped: `status` after each toggle until then.
            var droppedAt: Int?
            let wanted = 10_000
            while droppedAt == nil && replySeqs.count * 2 < wanted {
                let reply = try await controller.call("constrain", masks[replySeqs.count % 2])
                replySeqs.append(try #require(reply.seq, "\(reply)"))
                reader.readAvailable()
                if try await controller.call("status").result?["clients"]?.integer == 2 {
                    droppedAt = replySeqs.count - 1
                }
            }
            // The rest in batches of 100 requests sent at once; replies come in request order.
            while replySeqs.count * 2 < wanted {
                let count = min(100, wanted / 2 - replySeqs.count)
                let lines = (0..<count).map { index in
                    #"{"id": "t\#(index)", "method": "constrain", "params": \#(masks[(replySeqs.count + index) % 2])}"#
                }
                try controller.send(lines.joined(separator: "\n") + "\n")
                for index in 0..<count {
                    let reply = try await controller.next(timeout: .seconds(30), "the reply to toggle \(index)")
                    #expect(reply.id == .string("t\(index)"), "\(reply)")
                    replySeqs.append(try #require(reply.seq, "\(reply)"))
                }
                reader.readAvailable()
            }
            #expect(droppedAt != nil, "still connected after \(replySeqs.count) changes")
            // A barrier: every event before the reply to `get` has arrived.
            _ = try await reader.call("get", timeout: .seconds(30))
            let status = try await controller.call("status")
            #expect(status.result?["generating_connections"]?.integer == 1, "\(status)")
            #expect(status.result?["generation_total"]?.integer == 1, "\(status)")
            let peak = resources.peakResidentKiB
            let bound = residentBefore + 3 * (256 + 8) + 4096
            #expect(peak <= bound, "VmHWM \(peak) KiB over \(bound) KiB (VmRSS before \(residentBefore) KiB)")

            let first = try #require(replySeqs.first)
            let allEvents = reader.log.filter { $0.isEvent && ($0.seq ?? 0) >= first }
            DaemonContract.expectWellOrdered(allEvents)
            // The sensor runs with no scans fed, so the poll fallback may read the device and turn it once: changes
            // of their own, between the toggles.
            let toggled = Set(replySeqs)
            let events = allEvents.filter { toggled.contains($0.seq ?? -1) }
            let others = allEvents.filter { !toggled.contains($0.seq ?? -1) }
            #expect(others.allSatisfy { ["device", "interface"].contains($0.event) }, "\(others)")
            #expect(events.count >= wanted)
            // Every change, both of its events, in order, each once.
            let expected = replySeqs.flatMap { [($0, "allowed"), ($0, "interface")] }
            let received = events.map { ($0.seq ?? -1, $0.event ?? "?") }
            let common = min(received.count, expected.count)
            let differing = (0..<common).first { received[$0] != expected[$0] }
            if let index = differing ?? (received.count == expected.count ? nil : common) {
                let window = max(0, index - 3)..<min(events.count, index + 4)
                Issue.record(
                    """
                    the reader's events differ from the changes at event \(index) of \(received.count) \
                    (\(expected.count) expected, seq \(expected[min(index, expected.count - 1)].0)); received around it:
                    \(events[window].map { "\($0.seq ?? -1) \($0.event ?? "?")" }.joined(separator: "\n"))
                    """
                )
            }
            #expect(reader.log.allSatisfy { $0.errorCode == nil }, "\(reader.log.filter { $0.errorCode != nil })")

            // The sluggard gets what was queued before the drop, in order, then EOF.
            #expect(await sluggard.waitUntilClosed(timeout: .seconds(30)), "the sluggard is still connected")
            let queued = sluggard.log.filter { $0.isEvent && ($0.seq ?? 0) >= first }.map(\.text)
            #expect(!queued.isEmpty)
            #expect(queued.count < allEvents.count, "the sluggard cannot have everything")
            #expect(Array(allEvents.map(\.text).prefix(queued.count)) == queued, "the sluggard's events are a prefix")

            // Dropped at its bound: the daemon's queue for it (what it was owed less what reached its socket)
            // was within 256 KiB after the change before, and over it with the change that dropped it.
            let dropped = try #require(droppedAt)
            let before = sluggard.log.filter { !$0.isEvent || ($0.seq ?? 0) < first }
            var owed = before.reduce(0) { $0 + $1.text.utf8.count + 1 }
            var queue: [Int] = []
            var next = 0
            for seq in replySeqs {
                while next < allEvents.count, allEvents[next].seq ?? Int.max <= seq {
                    owed += allEvents[next].text.utf8.count + 1
                    next += 1
                }
                queue.append(owed - sluggard.receivedByteCount)
            }
            let limit = 256 * 1024
            #expect(dropped == 0 || queue[dropped - 1] <= limit, "queued \(queue[dropped - 1]) bytes, yet not dropped")
            #expect(queue[dropped] > limit, "dropped with \(queue[dropped]) bytes queued, within the bound")
            #expect(await daemon.stop() == .exited(0))
        }

        /// A generating client that reads, but a tenth less than it is sent, while changes (constraint toggles) are
        /// made in batches of 50: it is dropped for its unsent output (the daemon's log says so) and the reader, which
        /// reads everything, stays. What its queue holds meanwhile (the written part removed) is
        /// `ClientConnectionTests`: the daemon's peak memory does not show it, since the allocator reuses memory the
        /// daemon already holds.
        @Test(arguments: Reliability.runs)
        func aClientThatReadsTooLittleIsDroppedAtItsBound(run: Int) async throws {
            let rig = try await GeneratingDaemon()
            let (daemon, laggard) = (rig.daemon, rig.client)
            let reader = try daemon.connect()
            _ = try await reader.call("begin")
            let controller = try daemon.connect()
            #expect(try await controller.call("status").result?["clients"]?.integer == 3)

            let masks = [#"{"mask": "portrait"}"#, #"{"mask": "landscape"}"#]
            var changes = 0
            var clients = 3
            while clients == 3 && changes < 40_000 {
                let lines = (0..<50).map { #"{"id": \#($0), "method": "constrain", "params": \#(masks[$0 % 2])}"# }
                try controller.send(lines.joined(separator: "\n") + "\n")
                for index in 0..<50 {
                    _ = try await controller.next(timeout: .seconds(30), "the reply to toggle \(index)")
                }
                changes += 50
                // The reader takes the whole batch (the reply to `get` is the barrier); the laggard nine tenths of it.
                let before = reader.receivedByteCount
                _ = try await reader.call("get", timeout: .seconds(30))
                laggard.readAvailable(atMost: (reader.receivedByteCount - before) * 9 / 10)
                if changes % 500 == 0 {
                    clients = try await controller.call("status").result?["clients"]?.integer ?? -1
                }
            }
            #expect(clients == 2, "after \(changes) changes, \(clients) clients (the laggard is not dropped)")
            #expect(await laggard.waitUntilClosed(timeout: .seconds(30)), "the laggard is still connected")
            let log = await daemon.log(showing: "its unsent output passed 256 KiB")
            #expect(log.contains("a client that does not read"), "\(log)")
            #expect(!reader.closedByDaemon, "the reader was dropped")
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
