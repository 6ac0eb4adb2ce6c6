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

extension ServerMessage {
    /// What tells the kinds of line apart; read by ``parse(_:)`` with this module's parser, and by OrientClient's
    /// `decode(_:)` with `JSONDecoder`.
    package struct Envelope: Decodable {
        var id: RequestID?
        var error: ProtocolError?
        var event: String?
        var hasResult: Bool

        enum CodingKeys: String, CodingKey { case id, error, event, result }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(RequestID.self, forKey: .id)
            error = try container.decodeIfPresent(ProtocolError.self, forKey: .error)
            event = try container.decodeIfPresent(String.self, forKey: .event)
            hasResult = container.contains(.result)
        }
    }

    /// A reply line's `result`, read as `Result`.
    package struct ResultBody<Result: Decodable>: Decodable {
        package var result: Result
    }

    /// The message `line` is, told by its `envelope`: an event (`event` reads the whole line as one), an error, or a
    /// result.
    /// - Throws: what `event` throws; a `DecodingError` when the line is neither a reply nor an event.
    package static func message(
        _ envelope: Envelope,
        line: [UInt8],
        event: () throws -> OrientationEvent
    ) throws -> ServerMessage {
        if envelope.event != nil { return .event(try event()) }
        if let error = envelope.error { return .error(id: envelope.id, error) }
        guard envelope.hasResult else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "neither a reply nor an event"))
        }
        return .result(id: envelope.id, line: line)
    }

    /// Reads one line (without its newline) with this module's own JSON parser, for a reader without Foundation
    /// (`orientd calibrate` through the daemon); OrientClient's `decode(_:)` reads the same with `JSONDecoder`.
    /// - Throws: JSONSyntaxError when the line is not JSON; a `DecodingError` when it is not a message of
    ///   PROTOCOL.md.
    public static func parse(_ line: [UInt8]) throws -> ServerMessage {
        let value = try JSONValue.parse(line)
        let envelope = try JSONValueDecoder(value).decode(Envelope.self)
        return try message(envelope, line: line) { try JSONValueDecoder(value).decode(OrientationEvent.self) }
    }

    /// Reads the `result` of a reply line as `type`, with this module's own JSON parser.
    /// - Throws: JSONSyntaxError when the line is not JSON; a `DecodingError` when its result is not a `type`.
    public static func parseResult<Result: Decodable>(_ type: Result.Type, from line: [UInt8]) throws -> Result {
        try JSONValueDecoder(JSONValue.parse(line)).decode(ResultBody<Result>.self).result
    }
}
