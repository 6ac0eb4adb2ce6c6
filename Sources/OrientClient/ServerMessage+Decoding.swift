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
public import OrientProtocol

extension ServerMessage {
    private struct Envelope: Decodable {
        var id: RequestID?
        var error: ProtocolError?
        var event: String?
        var hasResult: Bool

        enum CodingKeys: String, CodingKey { case id, error, event, result }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(RequestID.self, forKey: .id)
            error = try container.decodeIfPresent(ProtocolError.self, forKey: .error)
            event = try container.decodeIfPresent(String.self, forKey: .event)
            hasResult = container.contains(.result)
        }
    }

    private struct ResultBody<Result: Decodable>: Decodable {
        var result: Result
    }

    /// Reads one line (without its newline).
    /// - Throws: a decoding error when the line is not a message of PROTOCOL.md.
    public static func decode(_ line: [UInt8]) throws -> ServerMessage {
        let decoder = JSONDecoder()
        let envelope = try decoder.decode(Envelope.self, from: Data(line))
        if envelope.event != nil {
            return .event(try decoder.decode(OrientationEvent.self, from: Data(line)))
        }
        if let error = envelope.error {
            return .error(id: envelope.id, error)
        }
        guard envelope.hasResult else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "neither a reply nor an event")
            )
        }
        return .result(id: envelope.id, line: line)
    }

    /// Decodes the `result` of a reply line as `type`.
    public static func result<Result: Decodable>(_ type: Result.Type, from line: [UInt8]) throws -> Result {
        try JSONDecoder().decode(ResultBody<Result>.self, from: Data(line)).result
    }
}
