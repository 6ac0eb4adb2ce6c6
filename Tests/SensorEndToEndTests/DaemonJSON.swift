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
enum DaemonJSON: Decodable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([DaemonJSON])
    case object([String: DaemonJSON])

    init(from decoder: any Decoder) throws {
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
    static func parse(_ bytes: some Collection<UInt8>) throws -> DaemonJSON {
        try JSONDecoder().decode(DaemonJSON.self, from: Data(bytes))
    }

    /// The member `key` of an object; nil when absent or when this is not an object.
    subscript(key: String) -> DaemonJSON? {
        guard case .object(let members) = self else { return nil }
        return members[key]
    }

    /// Whether this is an object with the member `key` (possibly null).
    func has(_ key: String) -> Bool { self[key] != nil }

    var string: String? {
        guard case .string(let value) = self else { return nil }
        return value
    }

    var integer: Int? {
        guard case .integer(let value) = self else { return nil }
        return Int(value)
    }

    /// A number of either kind, as a Double.
    var double: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    var bool: Bool? {
        guard case .bool(let value) = self else { return nil }
        return value
    }

    var array: [DaemonJSON]? {
        guard case .array(let value) = self else { return nil }
        return value
    }

    /// The strings of an array of strings; nil otherwise.
    var strings: [String]? {
        guard let items = array else { return nil }
        let values = items.compactMap(\.string)
        return values.count == items.count ? values : nil
    }

    var isNull: Bool { self == .null }

    var description: String {
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
struct DaemonMessage: CustomStringConvertible {
    /// The parsed line.
    let json: DaemonJSON
    /// The line as received, without its newline.
    let text: String

    /// The event name, for an event.
    var event: String? { json["event"]?.string }
    var isEvent: Bool { json.has("event") }
    /// Whether this is a reply (it has `result` or `error`).
    var isReply: Bool { json.has("result") || json.has("error") }
    /// The echoed id; nil when the member is absent (`.null` when present and null).
    var id: DaemonJSON? { json["id"] }
    var result: DaemonJSON? { json["result"] }
    /// The error code of an error reply.
    var errorCode: String? { json["error"]?["code"]?.string }
    /// `previous` of an event.
    var previous: String? { json["previous"]?.string }
    /// `previous` as it is: a `tablet-mode` event's is `true`, `false` or null (nil when it is missing).
    var previousValue: DaemonJSON? { json["previous"] }
    /// The state an event carries, or the state a reply returns (`get`, `lock`, … or `begin`'s `state`).
    var state: DaemonJSON? {
        if let state = json["state"] { return state }
        if let result = json["result"] { return result["state"] ?? (result.has("seq") ? result : nil) }
        return nil
    }
    /// The state's `seq`.
    var seq: Int? { state?["seq"]?.integer }

    var description: String { text }
}
