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
    /// Reads one line (without its newline).
    /// - Throws: a decoding error when the line is not a message of PROTOCOL.md.
    public static func decode(_ line: [UInt8]) throws -> ServerMessage {
        let decoder = JSONDecoder()
        let envelope = try decoder.decode(Envelope.self, from: Data(line))
        return try message(envelope, line: line) { try decoder.decode(OrientationEvent.self, from: Data(line)) }
    }

    /// Decodes the `result` of a reply line as `type`.
    public static func result<Result: Decodable>(_ type: Result.Type, from line: [UInt8]) throws -> Result {
        try JSONDecoder().decode(ResultBody<Result>.self, from: Data(line)).result
    }
}
