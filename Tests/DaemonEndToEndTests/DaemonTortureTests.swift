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
    /// Reliability, "protocol torture": nothing a client sends takes the daemon down or harms another client.
    ///
    /// 10,000 random and malformed lines of the torture corpus (`Tests/Corpus/protocol-torture.json`) over 50
    /// connections at once, in batches, plus connections that end badly: a partial line then close, a 1 MiB line,
    /// bytes after the newline then close, a request then close without reading. Every line gets exactly one
    /// reply, in order; every well-formed but wrong request gets its documented error (PROTOCOL.md) and id. A
    /// generating client meanwhile sees every change (no seq missing) and every turn of the device, and the
    /// daemon's peak memory stays within the design's bound: 50 connections × (256 KiB of output + 8 KiB of
    /// framing), plus 4 MiB.
    @Suite struct DaemonTortureTests {
        @Test(arguments: Reliability.runs)
        func tenThousandRandomAndMalformedLinesOverFiftyConnections(run: Int) async throws {
            let corpus = try TortureCorpus.load()
            let rig = try await GeneratingDaemon()
            let (daemon, generator) = (rig.daemon, rig.client)
            let resources = ProcessResources(pid: daemon.process.pid)
            var feed = rig.feed
            let postures: [Posture] = [.normal, .leftUp, .bottomUp, .rightUp]
            try feed.hold(postures[0], seconds: 0.6)
            var holds = 1

            var slots = try (0..<50).map { _ in try daemon.connect() }
            for slot in slots { #expect(try await slot.call("hello").result != nil) }
            let residentBefore = resources.residentKiB
            var rng = SeededGenerator(seed: Reliability.seed(0x0D1E_5EED, run: run))
            let total = 10_000
            var sent = 0
            var nextID = 100
            var connections = slots.count
            var wrong: [String] = []
            while sent < total {
                // A batch to every connection at once, then every reply read and checked in order.
                var batches: [[TortureLine]] = []
                for slot in slots {
                    let count = min(Int.random(in: 5...30, using: &rng), total - sent)
                    let batch = try (0..<count).map { _ in
                        nextID += 1
                        return try TortureLine.random(id: nextID, from: corpus, using: &rng)
                    }
                    sent += batch.count
                    let ending: [UInt8] = Int.random(in: 0..<20, using: &rng) == 0 ? [13, 10] : [10]
                    try slot.send(batch.flatMap { $0.bytes + ending })
                    batches.append(batch)
                }
                for (slot, batch) in zip(slots, batches) {
                    for line in batch {
                        let reply = try await slot.next(timeout: .seconds(30), "the reply to \(line)")
                        if !line.accepts(reply) { wrong.append("\(line) → \(reply)") }
                    }
                }
                // Lines that end their connection, each on a new one; a new connection then takes a slot.
                for _ in 0..<min(3, total - sent) {
                    let ender = try daemon.connect()
                    sent += 1
                    switch Int.random(in: 0..<4, using: &rng) {
                    case 0:
                        try ender.send(#"{"id": 1, "meth"#)
                    case 1:
                        // The daemon closes after 4096 bytes, so the sending fails on the way.
                        try? ender.send(
                            #"{"id": 1, "method": "get", "pad": ""# + String(repeating: "x", count: 1 << 20)
                        )
                        #expect(await ender.waitUntilClosed(), "a 1 MiB line left the connection open")
                        let codes = ender.log.map { $0.errorCode ?? "\($0)" }
                        if codes != ["line-too-long"] { wrong.append("1 MiB line → \(codes)") }
                    case 2:
                        try ender.send(#"{"id": 5, "method": "get"}"# + "\n" + #"{"id": 6, "method": "ge"#)
                        ender.closeSendingSide()
                        #expect(await ender.waitUntilClosed(), "bytes after the newline left the connection open")
                        let ids = ender.log.map { $0.id ?? .null }
                        if ids != [.integer(5)] { wrong.append("bytes after the newline → \(ender.log)") }
                    default:
                        try ender.send(#"{"id": 7, "method": "status"}"# + "\n")
                    }
                    ender.close()
                    let index = Int.random(in: 0..<slots.count, using: &rng)
                    slots[index].close()
                    slots[index] = try daemon.connect()
                    connections += 2
                }
                if sent / 500 >= holds {
                    try feed.hold(postures[holds % postures.count], seconds: 0.6)
                    holds += 1
                }
                generator.readAvailable()
            }
            #expect(
                wrong.isEmpty,
                "\(wrong.count) wrong replies, first ones:\n\(wrong.prefix(10).joined(separator: "\n"))"
            )
            #expect(slots.allSatisfy { !$0.closedByDaemon }, "the daemon closed a connection that did nothing fatal")

            // Every scan read, then a barrier: every event before the reply to `get` has arrived.
            try await daemon.waitUntilRead(feed.written, via: generator)
            let final = try #require(try await generator.call("get").seq)
            let events = generator.log.filter(\.isEvent)
            DaemonContract.expectWellOrdered(events)
            let seqs = Set(events.compactMap(\.seq))
            let first = try #require(seqs.min())
            #expect(
                seqs == Set(first...final),
                "changes the generating client missed: \(Set(first...final).subtracting(seqs).sorted())"
            )
            let turns = events.filter { $0.event == "device" }.compactMap { $0.state?["device"]?.string }
            #expect(turns.count == holds, "\(holds) turns of the device, device events: \(turns)")
            #expect(
                generator.log.allSatisfy { $0.isEvent || $0.errorCode == nil },
                "\(generator.log.filter { $0.errorCode != nil })"
            )

            let bound = residentBefore + 50 * (256 + 8) + 4096
            let peak = resources.peakResidentKiB
            #expect(peak <= bound, "VmHWM \(peak) KiB over the bound \(bound) KiB (VmRSS before \(residentBefore) KiB)")
            #expect(daemon.process.exitStatus == nil, "\(daemon.process.report)")
            #expect(try await generator.call("hello").result?["protocol"]?.integer == 1)
            #expect(connections > 50)
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
