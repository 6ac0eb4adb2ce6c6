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

/// The result of `begin`: this connection's count after the call and the state.
public struct BeginResult: Sendable, Hashable, Codable {
    public var count: Int
    public var state: OrientationState

    /// A result from its parts.
    public init(count: Int, state: OrientationState) {
        self.count = count
        self.state = state
    }
}

/// The result of `end`: this connection's count after the call.
public struct EndResult: Sendable, Hashable, Codable {
    public var count: Int

    /// A result from its count.
    public init(count: Int) {
        self.count = count
    }
}

/// The result of `hello`.
public struct HelloResult: Sendable, Hashable, Codable {
    /// The sensor part of `hello`.
    public struct Sensor: Sendable, Hashable, Codable {
        public var status: SensorState
        /// The accelerometer's driver name (`accel_3d`), or nil without one.
        public var device: String?

        /// A sensor summary from its parts.
        public init(status: SensorState, device: String?) {
            self.status = status
            self.device = device
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(status, forKey: .status)
            try container.encode(device, forKey: .device)
        }
    }

    /// The protocol version (1).
    public var `protocol`: Int
    /// orientd's version.
    public var version: String
    public var sensor: Sensor

    /// A hello result from its parts.
    public init(protocol: Int = 1, version: String, sensor: Sensor) {
        self.protocol = `protocol`
        self.version = version
        self.sensor = sensor
    }
}

extension BeginResult: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("count", count)
            json.member("state", state)
        }
    }
}

extension EndResult: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in json.member("count", count) }
    }
}

extension HelloResult: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("protocol", `protocol`)
            json.member("sensor", sensor)
            json.member("version", version)
        }
    }
}

extension HelloResult.Sensor: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("device", device)
            json.member("status", status)
        }
    }
}

/// Writes the daemon's replies and events as JSON lines, ending in a newline, with ``JSONWriter``: the text
/// `JSONEncoder` would write with `.sortedKeys` and `.withoutEscapingSlashes`, in one allocation per line.
public enum MessageEncoder {
    /// Room for an event line (about 330 bytes) without growing; a status report may grow it once.
    private static let lineCapacity = 512

    /// `{"id": …, "result": …}`.
    public static func result(id: RequestID?, _ result: some JSONWritable) -> [UInt8] {
        line { json in
            json.member("id", id)
            json.member("result", result)
        }
    }

    /// `{"error": {"code": …, "message": …}, "id": …}`.
    public static func error(id: RequestID?, _ error: ProtocolError) -> [UInt8] {
        line { json in
            json.member("error", error)
            json.member("id", id)
        }
    }

    /// `{"event": …, "previous": …, "state": …}`.
    public static func event(_ event: OrientationEvent) -> [UInt8] {
        var json = JSONWriter(capacity: lineCapacity)
        json.value(event)
        json.newline()
        return json.bytes
    }

    private static func line(_ members: (inout JSONWriter) -> Void) -> [UInt8] {
        var json = JSONWriter(capacity: lineCapacity)
        json.object(members)
        json.newline()
        return json.bytes
    }
}
