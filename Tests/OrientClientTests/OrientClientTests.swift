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

import Glibc
import OrientClient
import OrientProtocol
import OrientationCore
import OrientdTestSupport
import Testing

@Suite("OrientClient against a scripted peer")
struct OrientClientTests {
    @Test("every call sends exactly the protocol's line and decodes its reply")
    func requestLines() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let client = OrientClient(socketPath: peer.path)
            let expected = [
                #"{"id": 1, "method": "hello"}"#,
                #"{"id": 2, "method": "get"}"#,
                #"{"id": 3, "method": "begin"}"#,
                #"{"id": 4, "method": "end"}"#,
                #"{"id": 5, "method": "lock", "params": {}}"#,
                #"{"id": 6, "method": "lock", "params": {"orientation": "portrait"}}"#,
                #"{"id": 7, "method": "lock", "params": {"mask": ["landscape-left", "landscape-right"]}}"#,
                #"{"id": 8, "method": "unlock"}"#,
                #"{"id": 9, "method": "constrain", "params": {"mask": ["portrait", "landscape-right"]}}"#,
                #"{"id": 10, "method": "constrain", "params": {"mask": null}}"#,
                #"{"id": 11, "method": "status"}"#,
            ]
            async let received = peer.accept().answer(expected.count)

            #expect(try await client.hello() == Fixture.hello)
            #expect(try await client.get() == Fixture.state())
            #expect(try await client.begin() == BeginResult(count: 1, state: Fixture.state()))
            #expect(try await client.end() == EndResult(count: 0))
            try await client.lock()
            try await client.lock(.orientation(.portrait))
            try await client.lock(.mask(.landscape))
            try await client.unlock()
            try await client.constrain([.portrait, .landscapeRight])
            try await client.constrain(nil)
            #expect(try await client.status() == Fixture.status)
            #expect(try await received == expected)
            await client.close()
        }
    }

    @Test("concurrent calls get their own replies, matched in request order")
    func repliesInOrder() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let client = OrientClient(socketPath: peer.path)
            try await client.connect()
            let connection = try await peer.accept()
            async let hello = client.hello()
            async let status = client.status()
            async let state = client.get()
            // All three are read before any is answered: only the order can match them.
            let lines = try await connection.readLines(3)
            for line in lines { try connection.send(Fixture.reply(to: line)) }
            #expect(try await hello == Fixture.hello)
            #expect(try await status == Fixture.status)
            #expect(try await state == Fixture.state())
            await client.close()
        }
    }

    @Test("events between a request and its reply go to events, in order")
    func interleavedEvents() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let client = OrientClient(socketPath: peer.path)
            try await client.connect()
            let connection = try await peer.accept()
            async let begun = client.begin()
            let line = try #require(try await connection.readLine())
            #expect(line == #"{"id": 1, "method": "begin"}"#)
            let portrait = Fixture.state(device: .portrait, interface: .portrait, seq: 2)
            try connection.send(
                Fixture.event(.sensor, Fixture.state(), previous: "stopped"),
                Fixture.result(1, BeginResult(count: 1, state: Fixture.state())),
                Fixture.event(.device, portrait, previous: "landscape-left"),
                Fixture.event(.interface, portrait, previous: "landscape-right")
            )
            #expect(try await begun.count == 1)
            var names: [OrientationEvent.Name] = []
            for _ in 0..<3 { names.append(try await next(client.events).name) }
            #expect(names == [.sensor, .device, .interface])
            #expect(await client.generationCount == 1)
            await client.close()
        }
    }

    @Test(
        "an error reply surfaces as the typed error with the daemon's code",
        arguments: [ProtocolError.Code.permissionDenied, .emptyMask, .invalidOrientation, .stateNotSaved]
    )
    func errorReply(code: ProtocolError.Code) async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let client = OrientClient(socketPath: peer.path)
            try await client.connect()
            let connection = try await peer.accept()
            let attempt = Task { try await client.lock(.orientation(.portrait)) }
            _ = try await connection.readLine()
            try connection.send(Fixture.error(1, code, "no you don't"))
            let error = await #expect(throws: OrientClientError.self) { try await attempt.value }
            #expect(error?.code == .daemon)
            #expect(error?.protocolError == ProtocolError(code, "no you don't"))
            #expect(error?.isPermissionDenied == (code == .permissionDenied))
            // The connection stays usable after an error.
            async let state = client.get()
            try connection.send(Fixture.reply(to: try #require(try await connection.readLine())))
            #expect(try await state == Fixture.state())
            await client.close()
        }
    }

    @Test("a missing socket gives cannot-connect with the errno")
    func missingSocket() async throws {
        try await withTemporaryDirectory { directory in
            let client = OrientClient(socketPath: directory + "/none")
            let error = await #expect(throws: OrientClientError.self) { try await client.get() }
            #expect(error?.code == .cannotConnect)
            #expect(error?.errno == ENOENT)
            #expect(error?.description == "cannot connect to \(directory)/none: No such file or directory")
            #expect(await client.connectionState == .disconnected)
        }
    }

    @Test("a call pending when the daemon goes away fails with connection-closed")
    func closedWhilePending() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let client = OrientClient(socketPath: peer.path)
            try await client.connect()
            let connection = try await peer.accept()
            let attempt = Task { try await client.status() }
            _ = try await connection.readLine()
            connection.close()
            let error = await #expect(throws: OrientClientError.self) { try await attempt.value }
            #expect(error?.code == .connectionClosed)
            await client.close()
        }
    }

    @Test("calls after close fail, and the streams end")
    func closeEnds() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let client = OrientClient(socketPath: peer.path)
            try await client.connect()
            let connection = try await peer.accept()
            await client.close()
            #expect(try await connection.readLine() == nil)
            let error = await #expect(throws: OrientClientError.self) { try await client.get() }
            #expect(error?.code == .clientClosed)
            var events = client.events.makeAsyncIterator()
            #expect(await events.next() == nil)
        }
    }
}
