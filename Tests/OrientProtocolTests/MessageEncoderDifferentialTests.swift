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

import FoundationEssentials
import OrientProtocol
import OrientationCore
import OrientdTestSupport
import Testing

/// The daemon's own JSON writer against FoundationEssentials' `JSONEncoder`, which wrote the daemon's lines
/// before: every message kind, over many random states and strings, must come out byte for byte the same.
@Suite struct MessageEncoderDifferentialTests {
    /// The encoder the daemon used, configured as it was.
    private static func reference(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value)) + [UInt8(ascii: "\n")]
    }

    /// `{"id": …, "result": …}` as the daemon encoded it with `Encodable`.
    private struct ResultReply<Result: Encodable>: Encodable {
        var id: RequestID?
        var result: Result

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(result, forKey: .result)
        }

        enum CodingKeys: String, CodingKey { case id, result }
    }

    /// `{"id": …, "error": …}` as the daemon encoded it with `Encodable`.
    private struct ErrorReply: Encodable {
        var id: RequestID?
        var error: ProtocolError

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(error, forKey: .error)
        }

        enum CodingKeys: String, CodingKey { case id, error }
    }

    /// Compares bytes, not strings (`String` equality would take "é" and "e\u{301}" as the same), and shows
    /// the lines as text when they differ.
    private static func expectSame(_ written: [UInt8], _ expected: [UInt8], seed: UInt64) {
        guard written != expected else { return }
        Issue.record(
            """
            the writer's line differs from JSONEncoder's (seed \(seed))
            written:  \(String(decoding: written, as: UTF8.self))
            expected: \(String(decoding: expected, as: UTF8.self))
            """
        )
    }

    /// A result reply, written and encoded with the reference.
    private static func expectSameResult(id: RequestID?, _ result: some JSONWritable & Encodable, seed: UInt64) throws {
        expectSame(
            MessageEncoder.result(id: id, result),
            try reference(ResultReply(id: id, result: result)),
            seed: seed
        )
    }

    /// An error reply, written and encoded with the reference.
    private static func expectSameError(id: RequestID?, _ error: ProtocolError, seed: UInt64) throws {
        expectSame(MessageEncoder.error(id: id, error), try reference(ErrorReply(id: id, error: error)), seed: seed)
    }

    static let seeds: [UInt64] = Array(1...8)
    static let rounds = 250

    @Test(arguments: seeds)
    func events(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<Self.rounds {
            let event = random.event { $0.state() }
            Self.expectSame(MessageEncoder.event(event), try Self.reference(event), seed: seed)
        }
    }

    @Test(arguments: seeds)
    func errors(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<Self.rounds {
            let id = random.requestID()
            let error = ProtocolError(ProtocolError.Code.allCases.randomElement(using: &random)!, random.text())
            try Self.expectSameError(id: id, error, seed: seed)
        }
    }

    @Test(arguments: seeds)
    func stateResults(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<Self.rounds {
            let id = random.requestID()
            let state = random.state()
            try Self.expectSameResult(id: id, state, seed: seed)
            let begin = BeginResult(count: random.integer(), state: state)
            try Self.expectSameResult(id: id, begin, seed: seed)
            let end = EndResult(count: random.integer())
            try Self.expectSameResult(id: id, end, seed: seed)
        }
    }

    @Test(arguments: seeds)
    func helloResults(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<Self.rounds {
            let id = random.requestID()
            let hello = HelloResult(
                protocol: random.integer(),
                version: random.text(),
                sensor: .init(status: random.sensorState(), device: random.optional { $0.text() })
            )
            try Self.expectSameResult(id: id, hello, seed: seed)
        }
    }

    @Test(arguments: seeds)
    func statusResults(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<Self.rounds {
            let id = random.requestID()
            let report = random.statusReport()
            try Self.expectSameResult(id: id, report, seed: seed)
        }
    }

    /// Every ASCII character and characters of each UTF-8 length, one at a time, in a message.
    @Test func everyASCIIByteAndEachUTF8LengthInAMessage() throws {
        var scalars = (0..<0x80).map { Unicode.Scalar(UInt8($0)) }
        scalars += [0xA0, 0xE9, 0x7FF, 0x800, 0x2028, 0x2029, 0xFEFF, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF]
            .compactMap { Unicode.Scalar(UInt32($0)) }
        for scalar in scalars {
            let error = ProtocolError(.internal, "<\(Character(scalar))>")
            let id = RequestID.string(String(Character(scalar)))
            try Self.expectSameError(id: id, error, seed: UInt64(scalar.value))
        }
    }
}

/// The draws of the differential tests.
extension SeededGenerator {
    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &self) < probability
    }

    mutating func optional<T>(_ make: (inout SeededGenerator) -> T) -> T? {
        chance(0.3) ? nil : make(&self)
    }

    /// Small, large and extreme integers.
    mutating func integer() -> Int {
        switch Int.random(in: 0..<4, using: &self) {
        case 0: Int.random(in: 0...9, using: &self)
        case 1: Int.random(in: -1_000_000...1_000_000, using: &self)
        case 2: [Int.min, Int.max, -1, 0, 1].randomElement(using: &self)!
        default: Int(truncatingIfNeeded: next())
        }
    }

    /// Strings of plain ASCII, escapes, controls and multi-byte characters.
    mutating func text() -> String {
        let pieces: [String] = [
            "a", "Z", "0", " ", "/", "\\", "\"", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{00}", "\u{1B}", "\u{1F}",
            "\u{7F}", "é", "ß", "€", "\u{2028}", "\u{FEFF}", "😀", "👩‍👩‍👧", "iio:device0", "accel_3d", "e\u{301}",
        ]
        var text = ""
        for _ in 0..<Int.random(in: 0...12, using: &self) {
            if chance(0.2) {
                text.unicodeScalars.append(Unicode.Scalar(UInt8.random(in: 0..<0x80, using: &self)))
            } else {
                text += pieces.randomElement(using: &self)!
            }
        }
        return text
    }

    /// Doubles as status reports hold them: whole numbers, fractions, and any finite bit pattern.
    mutating func double() -> Double {
        switch Int.random(in: 0..<5, using: &self) {
        case 0: return Double(Int.random(in: -100_000...100_000, using: &self))
        case 1: return Double(Int.random(in: 0...1_000_000, using: &self)) / 1000
        case 2:
            return [0, -0.0, 0.1, 1e-5, 1e15, 1e16, 1e17, .leastNonzeroMagnitude, .greatestFiniteMagnitude]
                .randomElement(using: &self)!
        case 3: return Double.random(in: -1e6...1e6, using: &self)
        default:
            while true {
                let value = Double(bitPattern: next())
                if value.isFinite { return value }
            }
        }
    }

    mutating func requestID() -> RequestID? {
        switch Int.random(in: 0..<3, using: &self) {
        case 0: nil
        case 1: .number(Int64(integer()))
        default: .string(text())
        }
    }

    mutating func sensorState() -> SensorState {
        SensorState.allCases.randomElement(using: &self)!
    }

    mutating func mask() -> InterfaceOrientationMask {
        InterfaceOrientationMask(rawValue: UInt8.random(in: 0...15, using: &self))
    }

    /// An event of any name, its state made by `state` (a tablet-mode event's previous value is a mode or none).
    mutating func event(state: (inout SeededGenerator) -> OrientationState) -> OrientationEvent {
        let name = OrientationEvent.Name.allCases.randomElement(using: &self)!
        return name == .tabletMode
            ? OrientationEvent(tabletModeChangedFrom: optional { Bool.random(using: &$0) }, state: state(&self))
            : OrientationEvent(name: name, previous: optional { $0.text() }, state: state(&self))
    }

    mutating func state() -> OrientationState {
        OrientationState(
            device: DeviceOrientation.allCases.randomElement(using: &self)!,
            interface: InterfaceOrientation.allCases.randomElement(using: &self)!,
            rotation: optional { PanelRotation.allCases.randomElement(using: &$0)! },
            allowed: mask(),
            lock: optional { $0.mask() },
            sensor: sensorState(),
            generating: Bool.random(using: &self),
            seq: chance(0.1) ? UInt64.max : UInt64.random(in: 0...UInt64(UInt32.max), using: &self),
            tabletMode: optional { Bool.random(using: &$0) },
            tabletModeSource: optional { TabletModeSource.allCases.randomElement(using: &$0)! },
            // The daemon sends the hinge rounded to one decimal, 0 to 360.
            hinge: optional { Double(Int.random(in: 0...3600, using: &$0)) / 10 },
            suggestion: optional { InterfaceOrientationMask.listingOrder.randomElement(using: &$0)! }
        )
    }

    mutating func doubles() -> [Double] {
        (0..<Int.random(in: 0...3, using: &self)).map { _ in double() }
    }

    mutating func statusReport() -> StatusReport {
        let sensor = StatusReport.Sensor(
            status: sensorState(),
            device: optional { $0.text() },
            driver: optional { $0.text() },
            mode: optional { $0.text() },
            fellBack: Bool.random(using: &self),
            rate: double(),
            scale: optional { $0.doubles() },
            offset: optional { $0.doubles() },
            matrix: optional { $0.text() },
            matrixSource: optional { $0.text() },
            location: optional { $0.text() },
            samplesRead: integer(),
            lastError: optional { $0.text() }
        )
        let tabletMode = optional { random in
            StatusReport.TabletMode(
                autoRotate: random.text(),
                followsDevice: Bool.random(using: &random),
                switches: (0..<Int.random(in: 0...2, using: &random)).map { _ in
                    StatusReport.TabletMode.Switch(
                        device: random.text(),
                        name: random.text(),
                        tabletMode: Bool.random(using: &random)
                    )
                }
            )
        }
        let bus = optional { random in
            StatusReport.Bus(
                name: random.text(),
                owned: Bool.random(using: &random),
                problem: random.optional { $0.text() },
                clients: (0..<Int.random(in: 0...2, using: &random)).map { _ in
                    StatusReport.Bus.Client(
                        name: random.text(),
                        pid: random.optional { $0.integer() },
                        command: random.optional { $0.text() },
                        claims: (0..<Int.random(in: 0...2, using: &random)).map { _ in random.text() }
                    )
                },
                sensors: random.optional { random in
                    (0..<Int.random(in: 0...3, using: &random)).map { _ in random.text() }
                }
            )
        }
        let constraints = optional { random in
            (0..<Int.random(in: 0...2, using: &random)).map { _ in
                StatusReport.Constraint(
                    mask: (0..<Int.random(in: 1...4, using: &random)).map { _ in random.text() },
                    pid: random.optional { $0.integer() },
                    command: random.optional { $0.text() },
                    holder: random.optional { $0.text() }
                )
            }
        }
        return StatusReport(
            version: text(),
            uptime: double(),
            sensor: sensor,
            clients: integer(),
            generatingConnections: integer(),
            generationTotal: integer(),
            state: state(),
            tabletMode: tabletMode,
            bus: bus,
            constraints: constraints
        )
    }
}
