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

import Foundation
import Glibc
import OrientProtocol
import OrientationCore
import OrientdTestSupport
import Testing

/// `orientctl rotate` against a scripted peer: it reads the suggestion and locks it; without one it fails with
/// `no-suggestion` (exit 1) and sends no lock; with an orientation it locks that one without asking.
@Suite("orientctl rotate against a scripted peer", .timeLimit(.minutes(2)))
struct RotateCommandTests {
    /// Landscape locked, the device held in portrait: portrait is suggested.
    static var suggesting: OrientationState {
        var state = Fixture.state(device: .portrait, lock: InterfaceOrientationMask(.landscapeRight))
        state.suggestion = .portrait
        return state
    }

    @Test("rotate locks the suggested orientation and prints the new state line")
    func acceptsTheSuggestion() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(["--socket", peer.path, "rotate"], in: directory)
            let connection = try await peer.accept()
            #expect(try await connection.readLine() == #"{"id": 1, "method": "get"}"#)
            try connection.send(Fixture.result(1, Self.suggesting))
            #expect(
                try await connection.readLine()
                    == #"{"id": 2, "method": "lock", "params": {"orientation": "portrait"}}"#
            )
            try connection.send(
                Fixture.result(
                    2,
                    Fixture.state(device: .portrait, interface: .portrait, lock: InterfaceOrientationMask(.portrait))
                )
            )
            #expect(try await process.wait() == 0)
            #expect(process.output == "device=portrait interface=portrait rotation=90 lock=portrait\n")
        }
    }

    @Test(
        "without a suggestion: no-suggestion, exit 1, and why",
        arguments: [
            (Fixture.state(), "rotation is not locked"),
            (Fixture.state(device: .landscapeLeft, lock: InterfaceOrientationMask(.landscapeRight)), "lock allows"),
        ]
    )
    func refusesWithoutASuggestion(state: OrientationState, why: String) async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(["--socket", peer.path, "rotate"], in: directory)
            let connection = try await peer.accept()
            #expect(try await connection.readLine() == #"{"id": 1, "method": "get"}"#)
            try connection.send(Fixture.result(1, state))
            #expect(try await process.wait() == 1)
            #expect(process.output.isEmpty)
            #expect(process.errorOutput.hasPrefix("orientctl: no-suggestion: "), "\(process.errorOutput)")
            #expect(process.errorOutput.contains(why), "\(process.errorOutput)")
            // Nothing more was asked: no lock.
            #expect(try await connection.readLine() == nil)
        }
    }

    @Test("rotate ORIENTATION locks it at once: a forced rotation")
    func forcesAnOrientation() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(["--socket", peer.path, "rotate", "landscape-left"], in: directory)
            let connection = try await peer.accept()
            #expect(
                try await connection.readLine()
                    == #"{"id": 1, "method": "lock", "params": {"orientation": "landscape-left"}}"#
            )
            try connection.send(
                Fixture.result(
                    1,
                    Fixture.state(interface: .landscapeLeft, lock: InterfaceOrientationMask(.landscapeLeft))
                )
            )
            #expect(try await process.wait() == 0)
            #expect(
                process.output == "device=landscape-left interface=landscape-left rotation=180 lock=landscape-left\n"
            )
        }
    }

    @Test("get shows the suggestion at the end of its line")
    func getShowsIt() async throws {
        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(["--socket", peer.path, "get", "--no-wait"], in: directory)
            let connection = try await peer.accept()
            #expect(try await connection.readLine() == #"{"id": 1, "method": "get"}"#)
            try connection.send(Fixture.result(1, Self.suggesting))
            #expect(try await process.wait() == 0)
            #expect(
                process.output
                    == "device=portrait interface=landscape-right rotation=0 lock=landscape-right suggestion=portrait\n"
            )
        }
    }
}
