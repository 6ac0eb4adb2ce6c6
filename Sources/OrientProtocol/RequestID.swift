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

/// A request's `id`: an integer or a string, echoed in the reply.
public enum RequestID: Sendable, Hashable, Codable, JSONWritable, CustomStringConvertible {
    case number(Int64)
    case string(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int64.self) {
            self = .number(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }

    public func write(to json: inout JSONWriter) {
        switch self {
        case .number(let value): json.integer(value)
        case .string(let value): json.string(value)
        }
    }

    public var description: String {
        switch self {
        case .number(let value): String(value)
        case .string(let value): "\"\(value)\""
        }
    }
}
