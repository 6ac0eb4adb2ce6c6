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

@Suite("OrientConnection")
struct OrientConnectionTests {
    @Test("an error sent before the daemon closes is kept in the close reason")
    func unsolicitedErrorThenClose() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let connection = try OrientConnection(socketPath: peer.path)
            let accepted = try await peer.accept()
            try accepted.send(Fixture.error(nil, .tooManyClients, "64 clients already"))
            accepted.close()
            for await _ in connection.events {}
            let reason = try #require(connection.closeReason)
            #expect(reason.code == .connectionClosed)
            #expect(reason.protocolError?.code == .tooManyClients)
        }
    }

    @Test("a reply's and an event's JSON come back byte for byte as sent")
    func rawLines() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let connection = try OrientConnection(socketPath: peer.path)
            let accepted = try await peer.accept()
            let stateText =
                #"{"seq":3,"device":"portrait","interface":"portrait","rotation":90,"#
                + #""transform":{"wayland":1,"sway":"270","xrandr":"left","matrix":[0,-1,1,1,0,0,0,0,1]},"#
                + #""allowed":["portrait"],"lock":["portrait"],"sensor":"active","generating":true}"#
            async let reply = connection.call(Request(method: .begin), returning: BeginResult.self)
            #expect(try await accepted.readLine() == #"{"id": 1, "method": "begin"}"#)
            let eventLine = #"{"event": "interface", "previous": "landscape-right", "state": \#(stateText)}"#
            try accepted.send(
                Array(#"{"result": {"count": 1, "state": \#(stateText)}, "id": 1}"#.utf8) + [10],
                Array(eventLine.utf8) + [10]
            )
            let begun = try await reply
            #expect(begun.value.count == 1)
            #expect(begun.value.state.lock == .portrait)
            #expect(begun.json(at: "result", "state").map { String(decoding: $0, as: UTF8.self) } == stateText)
            #expect(begun.json(at: "result", "count").map { Array($0) } == Array("1".utf8))
            #expect(begun.json(at: "result", "missing") == nil)
            let event = try await next(connection.events)
            #expect(event.line == Array(eventLine.utf8))
            #expect(event.json(at: "state").map { String(decoding: $0, as: UTF8.self) } == stateText)
            #expect(event.json(at: "previous").map { String(decoding: $0, as: UTF8.self) } == #""landscape-right""#)
            connection.close()
        }
    }

    @Test("a tablet-mode event is received, with its previous value")
    func tabletModeEvent() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let connection = try OrientConnection(socketPath: peer.path)
            let accepted = try await peer.accept()
            let stateText =
                #"{"seq":4,"device":"portrait","interface":"landscape-right","rotation":0,"#
                + #""transform":{"wayland":0,"sway":"normal","xrandr":"normal","matrix":[1,0,0,0,1,0,0,0,1]},"#
                + #""allowed":["portrait"],"lock":null,"sensor":"active","generating":true,"tablet_mode":false}"#
            try accepted.send(
                Array(#"{"event": "tablet-mode", "previous": null, "state": \#(stateText)}"#.utf8) + [10],
                Array(#"{"event": "tablet-mode", "previous": true, "state": \#(stateText)}"#.utf8) + [10]
            )
            let appeared = try await next(connection.events)
            #expect(appeared.value.name == .tabletMode)
            #expect(appeared.value.previousTabletMode == nil)
            #expect(appeared.value.state.tabletMode == false)
            let folded = try await next(connection.events)
            #expect(folded.value.previousTabletMode == true)
            #expect(connection.closeReason == nil)
            connection.close()
        }
    }

    @Test("member lookup skips strings holding braces, quotes and keys")
    func scannerSkipsStrings() {
        let line = Array(#"{"a": "}\"state\": [", "b": {"state": 1}, "state" : {"x": "]}"}}"#.utf8)
        let received = Received(value: 0, line: line)
        #expect(received.json(at: "state").map { String(decoding: $0, as: UTF8.self) } == #"{"x": "]}"}"#)
        #expect(received.json(at: "b", "state").map { String(decoding: $0, as: UTF8.self) } == "1")
        #expect(received.json(at: "a").map { String(decoding: $0, as: UTF8.self) } == #""}\"state\": [""#)
        #expect(Received(value: 0, line: Array("[1]".utf8)).json(at: "a") == nil)
    }

    @Test("a reply with another id than the one asked fails the call as an invalid reply")
    func outOfOrderReply() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let connection = try OrientConnection(socketPath: peer.path)
            let accepted = try await peer.accept()
            let reply = Task { try await connection.call(Request(method: .get)) }
            _ = try await accepted.readLine()
            try accepted.send(Fixture.result(99, Fixture.state()))
            let error = await #expect(throws: OrientClientError.self) { try await reply.value }
            #expect(error?.code == .invalidReply)
        }
    }
}
