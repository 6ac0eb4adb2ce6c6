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

public import OrientationCore

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
