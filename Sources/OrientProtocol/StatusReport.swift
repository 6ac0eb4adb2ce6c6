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

/// The diagnostics of `status` (PROTOCOL.md): the sensor, the clients, counters.
public struct StatusReport: Sendable, Hashable, Codable {
    /// What is known of the accelerometer.
    public struct Sensor: Sendable, Hashable, Codable {
        public var status: SensorState
        /// `iio:deviceN`, nil without one.
        public var device: String?
        /// The driver's name.
        public var driver: String?
        /// `buffer` or `poll`, nil while not capturing.
        public var mode: String?
        /// Whether polling was chosen because the buffer delivered nothing.
        public var fellBack: Bool
        /// Samples per second asked for.
        public var rate: Double
        public var scale: [Double]?
        public var offset: [Double]?
        /// The mount matrix, as hwdb writes it.
        public var matrix: String?
        /// Where the matrix came from.
        public var matrixSource: String?
        /// Display or base, and where that came from.
        public var location: String?
        /// Samples read since the daemon started.
        public var samplesRead: Int
        /// The last error, if any.
        public var lastError: String?

        /// A sensor report from its parts.
        public init(
            status: SensorState,
            device: String?,
            driver: String?,
            mode: String?,
            fellBack: Bool,
            rate: Double,
            scale: [Double]?,
            offset: [Double]?,
            matrix: String?,
            matrixSource: String?,
            location: String?,
            samplesRead: Int,
            lastError: String?
        ) {
            self.status = status
            self.device = device
            self.driver = driver
            self.mode = mode
            self.fellBack = fellBack
            self.rate = rate
            self.scale = scale
            self.offset = offset
            self.matrix = matrix
            self.matrixSource = matrixSource
            self.location = location
            self.samplesRead = samplesRead
            self.lastError = lastError
        }

        private enum CodingKeys: String, CodingKey {
            case status, device, driver, mode, rate, scale, offset, matrix, location
            case fellBack = "fell_back"
            case matrixSource = "matrix_source"
            case samplesRead = "samples_read"
            case lastError = "last_error"
        }
    }

    /// The tablet-mode switch and what it does to rotation.
    public struct TabletMode: Sendable, Hashable, Codable {
        /// One input device with a `SW_TABLET_MODE` switch.
        public struct Switch: Sendable, Hashable, Codable {
            /// The device node (`/dev/input/event5`).
            public var device: String
            /// The input device's name.
            public var name: String
            /// What this switch reads.
            public var tabletMode: Bool

            /// A switch from its parts.
            public init(device: String, name: String, tabletMode: Bool) {
                self.device = device
                self.name = name
                self.tabletMode = tabletMode
            }

            private enum CodingKeys: String, CodingKey {
                case device, name
                case tabletMode = "tablet_mode"
            }
        }

        /// `[Policy] AutoRotate=`: `always` or `tablet-mode`.
        public var autoRotate: String
        /// Whether the interface follows the device orientation now (false: held at the natural orientation).
        public var followsDevice: Bool
        /// The switches read; empty when the device has none.
        public var switches: [Switch]

        /// A tablet-mode report from its parts.
        public init(autoRotate: String, followsDevice: Bool, switches: [Switch]) {
            self.autoRotate = autoRotate
            self.followsDevice = followsDevice
            self.switches = switches
        }

        private enum CodingKeys: String, CodingKey {
            case switches
            case autoRotate = "auto_rotate"
            case followsDevice = "follows_device"
        }
    }

    /// The iio-sensor-proxy compatible D-Bus service (`[DBus] Compat=yes`).
    public struct Bus: Sendable, Hashable, Codable {
        /// One bus client that claimed the accelerometer.
        public struct Client: Sendable, Hashable, Codable {
            /// Its unique bus name, such as `:1.42`.
            public var name: String
            /// Its process id, if the bus told.
            public var pid: Int?
            /// Its command name, if the bus told.
            public var command: String?
            /// What it claimed: `accelerometer` (one generation count).
            public var claims: [String]

            /// A client from its parts.
            public init(name: String, pid: Int?, command: String?, claims: [String]) {
                self.name = name
                self.pid = pid
                self.command = command
                self.claims = claims
            }
        }

        /// The well-known name served, `net.hadess.SensorProxy`.
        public var name: String
        /// Whether the daemon owns the name now.
        public var owned: Bool
        /// Why it does not, if it does not.
        public var problem: String?
        /// The clients holding a claim.
        public var clients: [Client]

        /// A bus report from its parts.
        public init(name: String, owned: Bool, problem: String?, clients: [Client]) {
            self.name = name
            self.owned = owned
            self.problem = problem
            self.clients = clients
        }
    }

    /// orientd's version.
    public var version: String
    /// Seconds since the daemon started.
    public var uptime: Double
    public var sensor: Sensor
    /// Open connections.
    public var clients: Int
    /// Connections whose own count is above zero.
    public var generatingConnections: Int
    /// The sum of all counts.
    public var generationTotal: Int
    /// The state now.
    public var state: OrientationState
    /// The tablet-mode switches and the rotation they allow; nil from daemons older than the field.
    public var tabletMode: TabletMode?
    /// The base accelerometer of a convertible with two (the hinge angle); nil when there is none.
    public var baseSensor: Sensor?
    /// The D-Bus service; nil (absent on the wire) while it is off.
    public var bus: Bus?

    /// A report from its parts.
    public init(
        version: String,
        uptime: Double,
        sensor: Sensor,
        clients: Int,
        generatingConnections: Int,
        generationTotal: Int,
        state: OrientationState,
        tabletMode: TabletMode? = nil,
        baseSensor: Sensor? = nil,
        bus: Bus? = nil
    ) {
        self.version = version
        self.uptime = uptime
        self.sensor = sensor
        self.clients = clients
        self.generatingConnections = generatingConnections
        self.generationTotal = generationTotal
        self.state = state
        self.tabletMode = tabletMode
        self.baseSensor = baseSensor
        self.bus = bus
    }

    private enum CodingKeys: String, CodingKey {
        case version, sensor, clients, state, bus
        case tabletMode = "tablet_mode"
        case baseSensor = "base_sensor"
        case uptime = "uptime_s"
        case generatingConnections = "generating_connections"
        case generationTotal = "generation_total"
    }
}

extension StatusReport: JSONWritable {
    /// Writes the report as its `Encodable` conformance does: keys sorted, nil members left out.
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.memberIfPresent("base_sensor", baseSensor)
            json.memberIfPresent("bus", bus)
            json.member("clients", clients)
            json.member("generating_connections", generatingConnections)
            json.member("generation_total", generationTotal)
            json.member("sensor", sensor)
            json.member("state", state)
            json.memberIfPresent("tablet_mode", tabletMode)
            json.member("uptime_s", uptime)
            json.member("version", version)
        }
    }
}

extension StatusReport.Sensor: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.memberIfPresent("device", device)
            json.memberIfPresent("driver", driver)
            json.member("fell_back", fellBack)
            json.memberIfPresent("last_error", lastError)
            json.memberIfPresent("location", location)
            json.memberIfPresent("matrix", matrix)
            json.memberIfPresent("matrix_source", matrixSource)
            json.memberIfPresent("mode", mode)
            json.memberIfPresent("offset", offset)
            json.member("rate", rate)
            json.member("samples_read", samplesRead)
            json.memberIfPresent("scale", scale)
            json.member("status", status)
        }
    }
}

extension StatusReport.TabletMode: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("auto_rotate", autoRotate)
            json.member("follows_device", followsDevice)
            json.member("switches", switches)
        }
    }
}

extension StatusReport.TabletMode.Switch: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("device", device)
            json.member("name", name)
            json.member("tablet_mode", tabletMode)
        }
    }
}

extension StatusReport.Bus: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("clients", clients)
            json.member("name", name)
            json.member("owned", owned)
            json.memberIfPresent("problem", problem)
        }
    }
}

extension StatusReport.Bus.Client: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("claims", claims)
            json.memberIfPresent("command", command)
            json.member("name", name)
            json.memberIfPresent("pid", pid)
        }
    }
}
