import FoundationEssentials
import OrientationCore

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

/// Encodes the daemon's replies and events as JSON lines, ending in a newline.
public enum MessageEncoder {
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

    /// `{"id": …, "result": …}`.
    public static func result(id: RequestID?, _ result: some Encodable) -> [UInt8] {
        line(ResultReply(id: id, result: result))
    }

    /// `{"id": …, "error": {"code": …, "message": …}}`.
    public static func error(id: RequestID?, _ error: ProtocolError) -> [UInt8] {
        line(ErrorReply(id: id, error: error))
    }

    /// `{"event": …, "previous": …, "state": …}`.
    public static func event(_ event: OrientationEvent) -> [UInt8] {
        line(event)
    }

    private static func line(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain structs cannot fail; if it ever did, say so on the wire rather than crash.
        guard var bytes = try? encoder.encode(value) else {
            return Array("{\"id\":null,\"error\":{\"code\":\"internal\",\"message\":\"encoding failed\"}}\n".utf8)
        }
        bytes.append(UInt8(ascii: "\n"))
        return Array(bytes)
    }
}
