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
    /// Bad input (PROTOCOL.md error codes, limits): the documented error for each, and a generating client that
    /// keeps receiving its events and sees none of it.
    @Suite struct DaemonErrorTests {
        /// A bad request line, the error code it must give and the id the reply must carry (nil: `null`).
        struct BadLine: CustomStringConvertible {
            var line: String
            var code: String
            var id: DaemonJSON

            var description: String { line }
        }

        static let badLines = [
            BadLine(line: "not json", code: "parse-error", id: .null),
            BadLine(line: #"{"id": 1, "method": "get""#, code: "parse-error", id: .null),
            BadLine(line: "[1, 2]", code: "parse-error", id: .null),
            BadLine(line: #""get""#, code: "parse-error", id: .null),
            BadLine(line: #"{"id": 11, "method": "fly"}"#, code: "invalid-request", id: .integer(11)),
            BadLine(line: #"{"id": "x", "params": {}}"#, code: "invalid-request", id: .string("x")),
            BadLine(line: #"{"id": 12, "method": 7}"#, code: "invalid-request", id: .integer(12)),
            BadLine(
                line: #"{"id": 13, "method": "get", "params": {"now": true}}"#,
                code: "invalid-request",
                id: .integer(13)
            ),
            BadLine(line: #"{"id": 14, "method": "begin", "params": [1]}"#, code: "invalid-request", id: .integer(14)),
            BadLine(
                line: #"{"id": 15, "method": "lock", "params": {"orientation": 5}}"#,
                code: "invalid-request",
                id: .integer(15)
            ),
            BadLine(
                line: #"{"id": 16, "method": "constrain", "params": {}}"#,
                code: "invalid-request",
                id: .integer(16)
            ),
            BadLine(
                line: #"{"id": 17, "method": "constrain", "params": {"mask": 3}}"#,
                code: "invalid-request",
                id: .integer(17)
            ),
            BadLine(line: #"{"id": [1], "method": "get"}"#, code: "invalid-request", id: .null),
            BadLine(line: #"{"id": 1.5, "method": "get"}"#, code: "invalid-request", id: .null),
            BadLine(line: #"{"id": true, "method": "get"}"#, code: "invalid-request", id: .null),
            BadLine(line: #"{"id": {"a": 1}, "method": "get"}"#, code: "invalid-request", id: .null),
            BadLine(
                line: #"{"id": 21, "method": "lock", "params": {"orientation": "portrait", "mask": "all"}}"#,
                code: "invalid-request",
                id: .integer(21)
            ),
            BadLine(
                line: #"{"id": 18, "method": "lock", "params": {"orientation": "sideways"}}"#,
                code: "invalid-orientation",
                id: .integer(18)
            ),
            BadLine(
                line: #"{"id": 19, "method": "lock", "params": {"mask": "diagonal"}}"#,
                code: "invalid-orientation",
                id: .integer(19)
            ),
            BadLine(
                line: #"{"id": 20, "method": "constrain", "params": {"mask": ["portrait", "up"]}}"#,
                code: "invalid-orientation",
                id: .integer(20)
            ),
        ]

        @Test func badRequestsGetTheirErrorsAndHarmNobody() async throws {
            var rig = try await GeneratingDaemon()
            let (daemon, generator) = (rig.daemon, rig.client)
            let offender = try daemon.connect()
            try rig.feed.hold(.normal)
            _ = try await generator.nextChange()
            let before = try await offender.call("get")

            let postures: [Posture] = [.leftUp, .bottomUp, .rightUp, .normal]
            for (index, bad) in Self.badLines.enumerated() {
                try offender.send(bad.line + "\n")
                let reply = try await offender.next(timeout: .seconds(10), "the reply to \(bad.line)")
                #expect(reply.errorCode == bad.code, "\(bad.line) → \(reply)")
                #expect(reply.id == bad.id, "\(bad.line) → \(reply)")
                #expect(reply.json["error"]?["message"]?.string?.isEmpty == false, "\(reply)")
                // The generating client's events keep coming between the bad lines.
                if index % 5 == 0 {
                    try rig.feed.hold(postures[index / 5 % postures.count])
                    _ = try await generator.nextChange()
                }
            }
            // All of them at once, with good requests between: replies in request order.
            var batch: [(line: String, id: DaemonJSON, code: String?)] = []
            for (index, bad) in Self.badLines.enumerated() {
                batch.append((bad.line, bad.id, bad.code))
                batch.append((#"{"id": "good\#(index)", "method": "get"}"#, .string("good\(index)"), nil))
            }
            try offender.send(batch.map { $0.line + "\n" }.joined())
            for (line, id, code) in batch {
                let reply = try await offender.next(timeout: .seconds(10), "the reply to \(line)")
                #expect(reply.id == id && reply.errorCode == code, "\(line) → \(reply)")
            }
            // Duplicate keys: rejected or the last one taken, but answered.
            try offender.send(#"{"id": 30, "method": "get", "method": "hello"}"# + "\n")
            let duplicate = try await offender.next(timeout: .seconds(10), "the reply to duplicate keys")
            #expect(duplicate.isReply && [.integer(30), .null].contains(duplicate.id), "\(duplicate)")

            // The offender's connection still works, and a bad request changed nothing but the device orientation.
            let after = try await offender.call("get")
            #expect(after.state?["lock"] == before.state?["lock"], "\(after)")
            #expect(after.state?["allowed"] == before.state?["allowed"], "\(after)")
            #expect(try await offender.call("hello").result?["protocol"]?.integer == 1)
            #expect(offender.inbox.isEmpty, "\(offender.inbox)")

            // A line over 4096 bytes: line-too-long, then the connection is closed.
            try offender.send(#"{"id": 99, "method": "get", "pad": ""# + String(repeating: "x", count: 5000) + "\"}\n")
            let tooLong = try await offender.next(timeout: .seconds(10), "line-too-long")
            #expect(tooLong.errorCode == "line-too-long", "\(tooLong)")
            #expect(await offender.waitUntilClosed(), "the daemon keeps the connection after line-too-long")
            // Exactly 4096 bytes before the newline is still a line.
            let exact = try daemon.connect()
            let padding = 4096 - #"{"id": 1, "method": "get"}"#.utf8.count
            try exact.send(#"{"id": 1, "method": "get"}"# + String(repeating: " ", count: padding) + "\n")
            let exactReply = try await exact.next(timeout: .seconds(10), "the reply to a 4096-byte line")
            #expect(exactReply.state?["seq"] != nil, "\(exactReply)")
            exact.close()

            try rig.feed.hold(.leftUp)
            let change = try await generator.nextChange()
            #expect(change.first?.state?["device"]?.string == "portrait", "\(change)")
            // The generating client saw its own replies and events, nothing of the offender's errors.
            #expect(generator.log.allSatisfy { $0.isEvent || $0.errorCode == nil }, "\(generator.log)")
            DaemonContract.expectWellOrdered(generator.log.filter(\.isEvent))
            #expect(await daemon.stop() == .exited(0))
        }

        @Test func moreThanMaxClientsConnectionsAreRefused() async throws {
            var rig = try await GeneratingDaemon()
            let (daemon, generator) = (rig.daemon, rig.client)

            let open = try #require(try await generator.call("status").result?["clients"]?.integer)
            var others: [DaemonConnection] = []
            for _ in open..<64 {
                let connection = try daemon.connect()
                #expect(try await connection.call("hello").result?["protocol"]?.integer == 1)
                others.append(connection)
            }
            #expect(try await generator.call("status").result?["clients"]?.integer == 64)
            let extra = try daemon.connect()
            let refusal = try await extra.next(timeout: .seconds(10), "too-many-clients")
            #expect(refusal.errorCode == "too-many-clients", "\(refusal)")
            #expect(await extra.waitUntilClosed(), "the daemon keeps the 65th connection")

            // The 64 are all served, and the generating client gets its events.
            for connection in others {
                #expect(try await connection.call("get").state?["seq"] != nil)
            }
            try rig.feed.hold(.normal)
            let change = try await generator.nextChange()
            #expect(change.first?.state?["device"]?.string == "landscape-left", "\(change)")
            #expect(generator.log.allSatisfy { $0.isEvent || $0.errorCode == nil }, "\(generator.log)")

            // A place freed is a place taken.
            others.removeLast().close()
            var clients = 64
            for _ in 0..<500 where clients == 64 {
                clients = try await generator.call("status").result?["clients"]?.integer ?? 0
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(clients == 63)
            let replacement = try daemon.connect()
            #expect(try await replacement.call("hello").result?["protocol"]?.integer == 1)
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
