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

/// The diagnostics of `status` (PROTOCOL.md): the sensor, the clients, counters.
///
/// Each wire key is spelled once: by its coding key where it differs from the property's name, else by the
/// property. The daemon writes the report through its `Encodable` conformance (``JSONEncodedObject``), clients read
/// it through its `Decodable` one.
public struct StatusReport: Sendable, Hashable, Codable, JSONEncodedObject {
    /// What is known of the accelerometer.
    public struct Sensor: Sendable, Hashable, Codable, JSONEncodedObject {
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
        /// What says that its axes cannot be right (a matrix that is not a signed permutation, readings that
        /// contradict it), each with what to do; nil when nothing does.
        public var axes: [String]?
        /// The last sample read, before the mount matrix (after scale and offset, m/s²: what the driver's raw
        /// attributes give, scaled), computed from the last sample by the inverse of the matrix in force; nil while
        /// the sensor does not capture, before its first sample, or when the matrix cannot be inverted.
        /// ``samplesRead`` tells a new one from the one seen before.
        public var reading: [Double]?

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
            lastError: String?,
            axes: [String]? = nil,
            reading: [Double]? = nil
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
            self.axes = axes
            self.reading = reading
        }

        private enum CodingKeys: String, CodingKey {
            case status, device, driver, mode, rate, scale, offset, matrix, location, axes, reading
            case fellBack = "fell_back"
            case matrixSource = "matrix_source"
            case samplesRead = "samples_read"
            case lastError = "last_error"
        }
    }

    /// The tablet-mode switch and what it does to rotation.
    public struct TabletMode: Sendable, Hashable, Codable, JSONEncodedObject {
        /// One input device with a `SW_TABLET_MODE` switch.
        public struct Switch: Sendable, Hashable, Codable, JSONEncodedObject {
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
        /// Whether orientd's virtual tablet-mode switch keeps the sensors running to read the hinge, with or without
        /// a client generating (`[Policy] VirtualTabletSwitch=`, a base accelerometer, no real switch).
        public var virtualSwitchKeepsSensorsOn: Bool

        /// A tablet-mode report from its parts.
        public init(
            autoRotate: String,
            followsDevice: Bool,
            switches: [Switch],
            virtualSwitchKeepsSensorsOn: Bool = false
        ) {
            self.autoRotate = autoRotate
            self.followsDevice = followsDevice
            self.switches = switches
            self.virtualSwitchKeepsSensorsOn = virtualSwitchKeepsSensorsOn
        }

        private enum CodingKeys: String, CodingKey {
            case switches
            case autoRotate = "auto_rotate"
            case followsDevice = "follows_device"
            case virtualSwitchKeepsSensorsOn = "virtual_switch_keeps_sensors_on"
        }
    }

    /// The iio-sensor-proxy compatible D-Bus service (`[DBus] Compat=yes`).
    public struct Bus: Sendable, Hashable, Codable, JSONEncodedObject {
        /// One bus client that claimed a sensor.
        public struct Client: Sendable, Hashable, Codable, JSONEncodedObject {
            /// Its unique bus name, such as `:1.42`.
            public var name: String
            /// Its process id, if the bus told.
            public var pid: Int?
            /// Its command name, if the bus told.
            public var command: String?
            /// What it claimed, in the order of the API: `accelerometer` (one generation count), `light`,
            /// `proximity`, `compass`.
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
        /// The sensors found and served, in the order of the API: `accelerometer`, `light`, `proximity`,
        /// `compass`; nil from a daemon that does not tell.
        public var sensors: [String]?

        /// A bus report from its parts.
        public init(name: String, owned: Bool, problem: String?, clients: [Client], sensors: [String]? = nil) {
            self.name = name
            self.owned = owned
            self.problem = problem
            self.clients = clients
            self.sensors = sensors
        }
    }

    /// One connection's constraint, and who holds it.
    public struct Constraint: Sendable, Hashable, Codable, JSONEncodedObject {
        /// The orientations it allows, in listing order.
        public var mask: [String]
        /// The process at the other end of the connection, if its credentials were read.
        public var pid: Int?
        /// That process's command name (`/proc/PID/comm`), if it could be read.
        public var command: String?
        /// What the client said the constraint is for (`constrain`'s `holder`: `app mpv`), if it said.
        public var holder: String?

        /// A constraint from its parts.
        public init(mask: [String], pid: Int?, command: String?, holder: String?) {
            self.mask = mask
            self.pid = pid
            self.command = command
            self.holder = holder
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
    /// The connections' constraints with who holds them; nil from daemons older than the field.
    public var constraints: [Constraint]?

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
        bus: Bus? = nil,
        constraints: [Constraint]? = nil
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
        self.constraints = constraints
    }

    private enum CodingKeys: String, CodingKey {
        case version, sensor, clients, state, bus, constraints
        case tabletMode = "tablet_mode"
        case baseSensor = "base_sensor"
        case uptime = "uptime_s"
        case generatingConnections = "generating_connections"
        case generationTotal = "generation_total"
    }
}
