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

/// OrientProtocol's own reading of the daemon's lines (`ServerMessage.parse`, no Foundation) against OrientClient's
/// (`ServerMessage.decode`, FoundationEssentials' `JSONDecoder`): every message kind, over random values, reads the
/// same.
@Suite struct ServerMessageParsingTests {
    static let seeds: [UInt64] = Array(1...4)
    static let rounds = 100

    /// A line as the daemon writes it, without its newline.
    private static func line(_ bytes: [UInt8]) -> [UInt8] { Array(bytes.dropLast()) }

    /// `state` with a `seq` the parser reads exactly (see ``aSeqBeyondInt64IsRefusedWhereTheClientReadsIt()``).
    private static func readable(_ state: OrientationState) -> OrientationState {
        var state = state
        state.seq = min(state.seq, UInt64(Int64.max))
        return state
    }

    @Test(arguments: seeds)
    func statusReportsReadAsTheClientReadsThem(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<Self.rounds {
            var report = random.statusReport()
            report.state = Self.readable(report.state)
            report.sensor.reading = random.optional { random in (0..<3).map { _ in random.double() } }
            report.baseSensor = random.optional { _ in report.sensor }
            let line = Self.line(MessageEncoder.result(id: random.requestID(), report))
            #expect(try ServerMessage.parse(line) == ServerMessage.decode(line), "seed \(seed)")
            let parsed = try ServerMessage.parseResult(StatusReport.self, from: line)
            #expect(parsed == report, "seed \(seed)")
            #expect(parsed == (try ServerMessage.result(StatusReport.self, from: line)), "seed \(seed)")
        }
    }

    @Test(arguments: seeds)
    func eventsAndErrorsReadAsTheClientReadsThem(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<Self.rounds {
            let event = random.event { Self.readable($0.state()) }
            let eventLine = Self.line(MessageEncoder.event(event))
            #expect(try ServerMessage.parse(eventLine) == .event(event), "seed \(seed)")
            #expect(try ServerMessage.parse(eventLine) == ServerMessage.decode(eventLine), "seed \(seed)")

            let id = random.requestID()
            let error = ProtocolError(ProtocolError.Code.allCases.randomElement(using: &random)!, random.text())
            let errorLine = Self.line(MessageEncoder.error(id: id, error))
            #expect(try ServerMessage.parse(errorLine) == .error(id: id, error), "seed \(seed)")
        }
    }

    @Test(arguments: [
        #"{"id":1}"#, #"[1]"#, #"not json"#, #"{"event":"device"}"#, #"{"id":true,"result":{}}"#,
        #"{"id":1,"error":{"code":"no-such-code","message":""}}"#,
    ])
    func linesThatAreNoMessageAreRefusedByBoth(text: String) {
        let line = Array(text.utf8)
        #expect(throws: (any Error).self) { try ServerMessage.parse(line) }
        #expect(throws: (any Error).self) { try ServerMessage.decode(line) }
    }

    @Test func aResultOfAnotherShapeIsRefused() throws {
        let wrong = Array(#"{"id":1,"result":{"count":"two"}}"#.utf8)
        #expect(throws: (any Error).self) { try ServerMessage.parseResult(EndResult.self, from: wrong) }
        let right = Array(#"{"id":1,"result":{"count":2}}"#.utf8)
        #expect(try ServerMessage.parseResult(EndResult.self, from: right).count == 2)
    }

    /// The one difference: an integer beyond `Int64` is a `Double` to the parser, so a `seq` above `Int64.max` (which
    /// no daemon reaches: it counts changes from 0) is refused where `JSONDecoder` reads it.
    @Test func aSeqBeyondInt64IsRefusedWhereTheClientReadsIt() throws {
        var state = OrientationState(
            device: .portrait,
            interface: .portrait,
            rotation: .degrees0,
            allowed: .all,
            lock: nil,
            sensor: .active,
            generating: true,
            seq: UInt64(Int64.max)
        )
        #expect(
            try ServerMessage.parseResult(OrientationState.self, from: Self.line(MessageEncoder.result(id: nil, state)))
                == state
        )
        state.seq = UInt64.max
        let line = Self.line(MessageEncoder.result(id: nil, state))
        #expect(try ServerMessage.result(OrientationState.self, from: line) == state)
        #expect(throws: DecodingError.self) { try ServerMessage.parseResult(OrientationState.self, from: line) }
    }
}
