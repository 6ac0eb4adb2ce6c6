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

/// A JSON value as the daemon sends it, decoded with Foundation's `JSONDecoder` (independently of OrientProtocol,
/// so that the tests check the wire format, not the daemon's own decoder).
package enum DaemonJSON: Decodable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([DaemonJSON])
    case object([String: DaemonJSON])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([DaemonJSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: DaemonJSON].self))
        }
    }

    /// Parses one line of the daemon's output.
    package static func parse(_ bytes: some Collection<UInt8>) throws -> DaemonJSON {
        try JSONDecoder().decode(DaemonJSON.self, from: Data(bytes))
    }

    /// The member `key` of an object; nil when absent or when this is not an object.
    package subscript(key: String) -> DaemonJSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// Whether this is an object with the member `key` (possibly null).
    package func has(_ key: String) -> Bool { self[key] != nil }

    package var string: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    package var integer: Int? {
        guard case .integer(let value) = self else { return nil }
        return Int(value)
    }

    /// A number of either kind, as a Double.
    package var double: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    package var bool: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    package var array: [DaemonJSON]? {
        guard case .array(let value) = self else { return nil }
        return value
    }

    /// The strings of an array of strings; nil otherwise.
    package var strings: [String]? {
        guard let items = array else { return nil }
        let values = items.compactMap(\.string)
        return values.count == items.count ? values : nil
    }

    package var isNull: Bool { self == .null }

    package var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .integer(let value): "\(value)"
        case .number(let value): "\(value)"
        case .string(let value): "\"\(value)\""
        case .array(let items): "[" + items.map(\.description).joined(separator: ",") + "]"
        case .object(let members):
            "{" + members.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",") + "}"
        }
    }
}

/// One line the daemon sent: a reply (`id` with `result` or `error`) or an event (`event`, `state`).
package struct DaemonMessage: CustomStringConvertible {
    /// The parsed line.
    package let json: DaemonJSON
    /// The line as received, without its newline.
    package let text: String

    /// The event name, for an event.
    package var event: String? { json["event"]?.string }
    package var isEvent: Bool { json.has("event") }
    /// Whether this is a reply (it has `result` or `error`).
    package var isReply: Bool { json.has("result") || json.has("error") }
    /// The echoed id; nil when the member is absent (`.null` when present and null).
    package var id: DaemonJSON? { json["id"] }
    package var result: DaemonJSON? { json["result"] }
    /// The error code of an error reply.
    package var errorCode: String? { json["error"]?["code"]?.string }
    /// `previous` of an event.
    package var previous: String? { json["previous"]?.string }
    /// `previous` as it is: a `tablet-mode` event's is `true`, `false` or null (nil when it is missing).
    package var previousValue: DaemonJSON? { json["previous"] }
    /// The state an event carries, or the state a reply returns (`get`, `lock`, … or `begin`'s `state`).
    package var state: DaemonJSON? {
        if let state = json["state"] { return state }
        if let result = json["result"] { return result["state"] ?? (result.has("seq") ? result : nil) }
        return nil
    }
    /// The state's `seq`.
    package var seq: Int? { state?["seq"]?.integer }

    package var description: String { text }
}
