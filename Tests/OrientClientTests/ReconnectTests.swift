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

import OrientClient
import OrientProtocol
import OrientationCore
import OrientdTestSupport
import Testing

@Suite("OrientClient reconnecting")
struct ReconnectTests {
    static let quickly = OrientClient.ReconnectPolicy(initialDelay: .milliseconds(10), maximumDelay: .milliseconds(200))

    @Test("after the daemon restarts, the client re-sends its constraint and each begin, and events resume")
    func reconnects() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/socket"
            var peer = try ScriptedPeer(path: path)
            let client = OrientClient(socketPath: path, reconnectPolicy: Self.quickly)
            try await client.connect()
            var connection = try await peer.accept()
            async let setUp: Void = {
                try await client.begin()
                try await client.begin()
                try await client.constrain(.landscape)
            }()
            try await connection.answer(3)
            try await setUp
            #expect(await client.generationCount == 2)

            // The daemon exits; a new one listens on the same path a little later.
            let states = client.connectionStates
            peer.stopListening()
            connection.close()
            try await expectState(in: states) { if case .reconnecting = $0 { true } else { false } }
            peer = try ScriptedPeer(path: path)
            connection = try await peer.accept()
            let restored = try await connection.answer(3)
            #expect(
                restored == [
                    #"{"id": 1, "method": "constrain", "params": {"mask": ["landscape-left", "landscape-right"]}}"#,
                    #"{"id": 2, "method": "begin"}"#,
                    #"{"id": 3, "method": "begin"}"#,
                ]
            )
            try await expectState(in: states) { $0 == .connected }

            let landscape = Fixture.state(device: .landscapeRight, interface: .landscapeLeft, seq: 7)
            try connection.send(Fixture.event(.interface, landscape, previous: "landscape-right"))
            #expect(
                try await next(client.events)
                    == OrientationEvent(name: .interface, previous: "landscape-right", state: landscape)
            )
            await client.close()
        }
    }

    @Test("an end lowers what is re-sent; a removed constraint is not re-sent")
    func restoresWhatIsLeft() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory + "/socket"
            var peer = try ScriptedPeer(path: path)
            let client = OrientClient(socketPath: path, reconnectPolicy: Self.quickly)
            try await client.connect()
            var connection = try await peer.accept()
            async let setUp: Void = {
                try await client.begin()
                try await client.constrain(.portrait)
                try await client.begin()
                try await client.end()
                try await client.constrain(nil)
            }()
            try await connection.answer(5)
            try await setUp

            let states = client.connectionStates
            peer.stopListening()
            connection.close()
            try await expectState(in: states) { if case .reconnecting = $0 { true } else { false } }
            peer = try ScriptedPeer(path: path)
            connection = try await peer.accept()
            let restored = try #require(try await connection.readLine())
            #expect(restored == #"{"id": 1, "method": "begin"}"#)
            try connection.send(Fixture.reply(to: restored))
            try await expectState(in: states) { $0 == .connected }
            // Nothing else was sent: the next line is the app's own call.
            async let state = client.get()
            #expect(try await connection.readLine() == #"{"id": 2, "method": "get"}"#)
            try connection.send(Fixture.result(2, Fixture.state()))
            #expect(try await state == Fixture.state())
            await client.close()
        }
    }

    private func expectState(
        in states: AsyncStream<OrientClient.ConnectionState>,
        _ matches: @Sendable (OrientClient.ConnectionState) -> Bool
    ) async throws {
        while true {
            if matches(try await next(states)) { return }
        }
    }
}
