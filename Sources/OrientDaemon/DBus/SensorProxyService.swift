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

import CSystemd
import EventLoop
import IIOSensor
import Logging
import OrientProtocol
import OrientationCore
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// iio-sensor-proxy's D-Bus API on the system bus (`[DBus] Compat=yes`), so that GNOME (mutter), KDE (KWin) and
/// other clients of `net.hadess.SensorProxy` read orientd's orientation without any change on their side.
///
/// Each bus client that calls `ClaimAccelerometer` holds one generation count, like a socket connection's
/// `begin`, until it calls `ReleaseAccelerometer` or leaves the bus (an `sd_bus_track` per claim). The ambient light
/// sensor, the proximity sensor and the compass are ``PolledSensor``s that the service makes and is the delegate of:
/// each runs while at least one bus client claims it (`ClaimLight`, `ClaimProximity`, `ClaimCompass`), and a claim
/// is answered after the first reading, so that a client reads a value right after claiming. As with
/// iio-sensor-proxy, only root, the user of an active seat session and the users of `[DBus] ClaimUsers=` may claim
/// (``ClaimPolicy``); a reading's `PropertiesChanged` goes only to the clients that claim its sensor, the `Has…`
/// properties' to everyone. A failure to reach the
/// bus or to own the name is logged and shown in `status`; the control socket keeps serving.
final class SensorProxyService {
    static let busName = "net.hadess.SensorProxy"
    static let objectPath = "/net/hadess/SensorProxy"
    static let interface = "net.hadess.SensorProxy"
    static let compassPath = "/net/hadess/SensorProxy/Compass"
    static let compassInterface = "net.hadess.SensorProxy.Compass"

    let engine: Engine
    let loop: EventLoop
    let logger: Logger
    private var connection: BusConnection?
    private var slots: [OpaquePointer] = []
    private var tables: [UnsafeMutablePointer<sd_bus_vtable>] = []
    /// The claims of each sensor, by the claimant's unique name.
    private var claims: [ProxySensor: [String: Claim]] = [:]
    /// `ClaimAccelerometer` calls not answered yet: answered once the accelerometer's first reading is classified,
    /// or at ``firstReadingDeadline`` (`SensorProxyService+FirstReading.swift`).
    var unansweredClaims: [OpaquePointer] = []
    /// When the unanswered claims are answered whatever the sensor has read; nil while none waits.
    var firstReadingDeadline: TimerSource?
    private(set) var properties: SensorProxyProperties
    /// The light sensor, the proximity sensor and the compass.
    private var polled: [PolledSensorKind: PolledSensor] = [:]
    /// Whether something is near, with its margin, while a proximity sensor is found.
    private var proximity: ProximityThreshold?
    private var owned = false
    /// Who may claim a sensor (root, seat users, `[DBus] ClaimUsers=`); the daemon replaces it on reload.
    var claimPolicy: ClaimPolicy
    private var problem: String?

    /// Connects to the system bus, publishes the objects and takes the name; on failure logs why and stays off
    /// the bus (``statusReport`` tells).
    init(loop: EventLoop, engine: Engine, claimPolicy: ClaimPolicy, logger: Logger) {
        self.engine = engine
        self.loop = loop
        self.logger = logger
        self.claimPolicy = claimPolicy
        properties = Self.properties(of: engine)
        engine.tracksTilt = true
        for kind in PolledSensorKind.allCases {
            let sensor = PolledSensor(kind: kind, loop: loop, logger: logger, delegate: self)
            polled[kind] = sensor
            properties = Self.found(sensor, in: properties)
        }
        proximity = polled[.proximity]?.channel?.nearLevel.map(ProximityThreshold.init)
        do {
            let connection = try BusConnection(loop: loop, description: "orientd-sensor-proxy")
            self.connection = connection
            try publish(on: connection)
            try connection.requestName(Self.busName)
            owned = true
            logger.info(
                "serving the iio-sensor-proxy API on the system bus",
                metadata: ["name": "\(Self.busName)", "unique_name": "\(connection.uniqueName ?? "?")"]
            )
        } catch {
            fail(Self.explain(error))
        }
    }

    deinit {
        answerUnansweredClaims(reason: "the service is stopping")
        claims.removeAll()
        for sensor in polled.values { sensor.stop() }
        for slot in slots { sd_bus_slot_unref(slot) }
        connection = nil
        for table in tables { table.deallocate() }
    }

    /// The bus part of `status`.
    var statusReport: StatusReport.Bus {
        StatusReport.Bus(
            name: Self.busName,
            owned: owned,
            problem: problem,
            clients: clients,
            sensors: [
                (properties.hasAccelerometer, ProxySensor.accelerometer), (properties.hasAmbientLight, .light),
                (properties.hasProximity, .proximity), (properties.hasCompass, .compass),
            ].filter(\.0).map(\.1.rawValue)
        )
    }

    /// Every claimant, once, with the sensors it claims in the order of the API.
    private var clients: [StatusReport.Bus.Client] {
        var byName: [String: StatusReport.Bus.Client] = [:]
        for sensor in ProxySensor.allCases {
            for claim in (claims[sensor] ?? [:]).values {
                byName[claim.name, default: .init(name: claim.name, pid: claim.pid, command: claim.command, claims: [])]
                    .claims.append(sensor.rawValue)
            }
        }
        return byName.values.sorted { $0.name < $1.name }
    }

    /// Recomputes the accelerometer's properties from the engine and signals the ones that changed.
    func refresh() {
        let engineProperties = Self.properties(of: engine)
        var new = properties
        new.hasAccelerometer = engineProperties.hasAccelerometer
        new.orientation = engineProperties.orientation
        new.tilt = engineProperties.tilt
        publish(new)
        if !unansweredClaims.isEmpty, accelerometerHasAnswer {
            answerUnansweredClaims(reason: "first reading")
        }
    }

    /// Takes `new` as the properties and signals, on each object, the ones that changed.
    private func publish(_ new: SensorProxyProperties) {
        let names = new.changedNames(from: properties)
        let compassNames = new.changedCompassNames(from: properties)
        properties = new
        guard owned, let connection else { return }
        signal(names, path: Self.objectPath, interface: Self.interface, on: connection)
        signal(compassNames, path: Self.compassPath, interface: Self.compassInterface, on: connection)
    }

    /// Signals the changes of `names`, as iio-sensor-proxy does: the `Has…` properties to everyone, a sensor's
    /// readings only to each client that claims it (a unicast signal per claimant).
    private func signal(_ names: [String], path: String, interface: String, on connection: BusConnection) {
        let broadcast = names.filter { ProxySensor(readingProperty: $0) == nil }
        do {
            if !broadcast.isEmpty {
                try connection.emitPropertiesChanged(path: path, interface: interface, names: broadcast)
            }
        } catch {
            logger.warning("PropertiesChanged not sent", metadata: ["error": "\(error)"])
        }
        for sensor in ProxySensor.allCases {
            guard let claimants = claims[sensor], !claimants.isEmpty else { continue }
            let readings = names.compactMap { name in
                ProxySensor(readingProperty: name) == sensor ? value(of: name).map { (name: name, value: $0) } : nil
            }
            guard !readings.isEmpty else { continue }
            for claimant in claimants.keys.sorted() {
                do {
                    try connection.sendPropertiesChanged(
                        path: path,
                        interface: interface,
                        properties: readings,
                        to: claimant
                    )
                } catch {
                    logger.warning(
                        "PropertiesChanged not sent",
                        metadata: ["bus_client": "\(claimant)", "error": "\(error)"]
                    )
                }
            }
        }
    }

    /// `properties` with the presence of `sensor`'s device: a sensor found keeps its last values (a new one's unit
    /// is its own), one gone reads as iio-sensor-proxy's absent sensor.
    private static func found(_ sensor: PolledSensor, in properties: SensorProxyProperties) -> SensorProxyProperties {
        var new = properties
        let channel = sensor.channel
        switch sensor.kind {
        case .light:
            // The unit is the readings', as iio-sensor-proxy's: `lux` until the first reading of a sensor found,
            // and again once it is gone (a sensor replaced keeps its predecessor's until it reads).
            new.hasAmbientLight = channel != nil
            if channel == nil {
                new.lightLevel = 0
                new.lightLevelUnit = LightUnit.lux.rawValue
            }
        case .proximity:
            new.hasProximity = channel != nil
            if channel == nil { new.proximityNear = false }
        case .compass:
            new.hasCompass = channel != nil
            if channel == nil { new.compassHeading = -1 }
        }
        return new
    }

    private static func properties(of engine: Engine) -> SensorProxyProperties {
        SensorProxyProperties(
            hasAccelerometer: engine.hasAccelerometer,
            orientation: SensorProxyProperties.orientation(interface: engine.busInterface, natural: engine.natural),
            tilt: SensorProxyProperties.tilt(engine.tilt)
        )
    }

    // MARK: Bus objects

    /// Adds both objects' vtables and a filter that notices the bus going away.
    private func publish(on connection: BusConnection) throws(BusError) {
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        let main = UnsafeMutablePointer<sd_bus_vtable>.allocate(capacity: orientd_sensor_proxy_vtable_count())
        tables.append(main)
        orientd_sensor_proxy_vtable(main, Self.getProperty, Self.callMethod)
        let compass = UnsafeMutablePointer<sd_bus_vtable>.allocate(capacity: orientd_compass_vtable_count())
        tables.append(compass)
        orientd_compass_vtable(compass, Self.getProperty, Self.callMethod)

        var slot: OpaquePointer?
        try BusError.check(
            sd_bus_add_object_vtable(connection.bus, &slot, Self.objectPath, Self.interface, main, userdata),
            "sd_bus_add_object_vtable",
            Self.interface
        )
        slots.append(try BusError.returned(slot, by: "sd_bus_add_object_vtable"))
        try BusError.check(
            sd_bus_add_object_vtable(connection.bus, &slot, Self.compassPath, Self.compassInterface, compass, userdata),
            "sd_bus_add_object_vtable",
            Self.compassInterface
        )
        slots.append(try BusError.returned(slot, by: "sd_bus_add_object_vtable"))
        try BusError.check(
            sd_bus_add_filter(connection.bus, &slot, Self.filter, userdata),
            "sd_bus_add_filter"
        )
        slots.append(try BusError.returned(slot, by: "sd_bus_add_filter"))
    }

    /// The property getter of both vtables (`sd_bus_property_get_t`): appends the value to the reply.
    private static let getProperty: sd_bus_property_get_t = { _, _, _, property, reply, userdata, _ in
        guard let property, let reply, let userdata else { return -EINVAL }
        let service = Unmanaged<SensorProxyService>.fromOpaque(userdata).takeUnretainedValue()
        return service.value(of: String(cString: property))?.append(to: reply) ?? -ENOENT
    }

    /// The method handler of both vtables (`sd_bus_message_handler_t`).
    private static let callMethod: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return -EINVAL }
        return Unmanaged<SensorProxyService>.fromOpaque(userdata).takeUnretainedValue().call(message)
    }

    /// Sees every incoming message; acts only on sd-bus's local `Disconnected` signal.
    private static let filter: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata,
            sd_bus_message_is_signal(message, "org.freedesktop.DBus.Local", "Disconnected") > 0
        else { return 0 }
        Unmanaged<SensorProxyService>.fromOpaque(userdata).takeUnretainedValue().disconnected()
        return 0
    }

    /// The value of `property`, with its D-Bus type; nil for a name neither object has.
    private func value(of property: String) -> BusConnection.PropertyValue? {
        switch property {
        case "HasAccelerometer": .boolean(properties.hasAccelerometer)
        case "AccelerometerOrientation": .string(properties.orientation)
        case "AccelerometerTilt": .string(properties.tilt)
        case "HasAmbientLight": .boolean(properties.hasAmbientLight)
        case "LightLevelUnit": .string(properties.lightLevelUnit)
        case "LightLevel": .double(properties.lightLevel)
        case "HasProximity": .boolean(properties.hasProximity)
        case "ProximityNear": .boolean(properties.proximityNear)
        case "HasCompass": .boolean(properties.hasCompass)
        case "CompassHeading": .double(properties.compassHeading)
        default: nil
        }
    }

    // MARK: Claims

    private func call(_ message: OpaquePointer) -> Int32 {
        let member = sd_bus_message_get_member(message).map { String(cString: $0) } ?? ""
        guard let sender = sd_bus_message_get_sender(message).map({ String(cString: $0) }),
            let sensor = ProxySensor(method: member)
        else { return orientd_bus_reply_empty(message) }
        if member.hasPrefix("Claim") {
            if let denial = refusal(of: sensor, by: sender, message: message) {
                var error = sd_bus_error()
                defer { sd_bus_error_free(&error) }
                sd_bus_error_set(&error, "org.freedesktop.DBus.Error.AccessDenied", denial)
                return sd_bus_reply_method_error(message, &error)
            }
            // A claim that cannot be followed is refused, so that the client knows and may claim again.
            if let refused = claim(sensor, by: sender, message: message) { return -refused }
            if sensor == .accelerometer, !accelerometerHasAnswer { return answerLater(message) }
        } else {
            release(sensor, of: sender, reason: member)
        }
        return orientd_bus_reply_empty(message)
    }

    /// Why `sender` may not claim `sensor` (logged as a warning), or nil when ``claimPolicy`` allows it.
    private func refusal(of sensor: ProxySensor, by sender: String, message: OpaquePointer) -> String? {
        guard let userID = Self.senderUserID(message) else {
            let reason = "the bus does not tell which user sent the claim, so it cannot be allowed"
            logger.warning(
                "sensor claim refused",
                metadata: ["sensor": "\(sensor.rawValue)", "bus_client": "\(sender)", "reason": "\(reason)"]
            )
            return reason
        }
        let decision = claimPolicy.decide(userID: userID)
        guard !decision.isAllowed else { return nil }
        logger.warning(
            "sensor claim refused",
            metadata: [
                "sensor": "\(sensor.rawValue)", "bus_client": "\(sender)", "uid": "\(userID)",
                "reason": "\(decision.reason)",
            ]
        )
        return decision.reason
    }

    /// The sender's effective user id as the bus tells it (its real one when the effective one is unknown).
    private static func senderUserID(_ message: OpaquePointer) -> UInt32? {
        var creds: OpaquePointer?
        let mask = UInt64(SD_BUS_CREDS_EUID) | UInt64(SD_BUS_CREDS_UID) | UInt64(SD_BUS_CREDS_AUGMENT)
        guard sd_bus_query_sender_creds(message, mask, &creds) >= 0, let creds else { return nil }
        defer { sd_bus_creds_unref(creds) }
        var userID: uid_t = 0
        if sd_bus_creds_get_euid(creds, &userID) >= 0 || sd_bus_creds_get_uid(creds, &userID) >= 0 {
            return UInt32(userID)
        }
        return nil
    }

    /// One count of `sensor` for a client that has not claimed it yet; a repeated claim changes nothing. The first
    /// claim of a polled sensor starts it, which reads it once before this returns (and so before the reply). A
    /// claim of a sensor that is not there is kept, so that the sensor starts when it appears.
    /// - Returns: the errno of a claim that cannot be followed (and is refused); nil when it holds.
    private func claim(_ sensor: ProxySensor, by sender: String, message: OpaquePointer) -> Int32? {
        guard claims[sensor]?[sender] == nil, let connection else { return nil }
        let claim: Claim
        do {
            let id = sensor == .accelerometer ? engine.newClientID() : nil
            claim = try Claim(name: sender, id: id, bus: connection.bus, message: message) {
                [unowned self] name in self.release(sensor, of: name, reason: "left the bus")
            }
        } catch {
            logger.error(
                "cannot follow a bus client: its claim is refused",
                metadata: ["bus_client": "\(sender)", "sensor": "\(sensor.rawValue)", "error": "\(error)"]
            )
            return error.errno.rawValue
        }
        claims[sensor, default: [:]][sender] = claim
        logger.info(
            "sensor claimed on the bus",
            metadata: [
                "sensor": "\(sensor.rawValue)", "bus_client": "\(sender)",
                "pid": "\(claim.pid.map(String.init) ?? "?")", "command": "\(claim.command ?? "?")",
            ]
        )
        if let id = claim.id { _ = engine.begin(id) }
        if let kind = sensor.polledKind { polled[kind]?.start() }
        return nil
    }

    private func release(_ sensor: ProxySensor, of name: String, reason: String) {
        guard let claim = claims[sensor]?.removeValue(forKey: name) else { return }
        logger.info(
            "sensor released on the bus",
            metadata: ["sensor": "\(sensor.rawValue)", "bus_client": "\(name)", "reason": "\(reason)"]
        )
        if let id = claim.id { engine.clientClosed(id) }
        if let kind = sensor.polledKind, claims[sensor]?.isEmpty ?? true {
            polled[kind]?.stop()
            if kind == .proximity { proximity?.reset() }
        }
    }

    /// The bus went away (dbus-daemon stopped): every claim ends, and the service is off until a restart.
    private func disconnected() {
        answerUnansweredClaims(reason: "the bus disconnected")
        fail(
            "the system bus disconnected: \(Self.busName) is no longer served (restart orientd once the bus is "
                + "back); the control socket keeps serving"
        )
        for (sensor, claimants) in claims {
            for name in claimants.keys { release(sensor, of: name, reason: "the bus disconnected") }
        }
    }

    private func fail(_ message: String) {
        owned = false
        problem = message
        logger.error("the D-Bus service is off", metadata: ["problem": "\(message)"])
    }

    /// What went wrong and what to do, for the log and `status`.
    private static func explain(_ error: BusError) -> String {
        let prefix = "cannot serve \(busName) on the system bus (the control socket keeps serving)"
        switch (error.operation, error.errno.rawValue) {
        case ("sd_bus_open_system", _), ("sd_bus_request_name", ECONNREFUSED), ("sd_bus_request_name", ENOENT):
            return "\(prefix): the bus is not reachable: \(error); is dbus running (DBUS_SYSTEM_BUS_ADDRESS)?"
        case ("sd_bus_request_name", EEXIST):
            return "\(prefix): another program owns the name (iio-sensor-proxy?): stop and mask "
                + "iio-sensor-proxy.service, then restart orientd (docs/gnome-kde.md)"
        case ("sd_bus_request_name", EACCES), ("sd_bus_request_name", EPERM):
            return "\(prefix): the bus policy does not let this user own the name: install "
                + "net.hadess.SensorProxy.conf in /etc/dbus-1/system.d (docs/gnome-kde.md)"
        default:
            return "\(prefix): \(error)"
        }
    }
}

extension SensorProxyService: PolledSensorDelegate {
    /// A reading of a claimed sensor: its property takes the value, signalled only when it changed.
    func polledSensor(_ sensor: PolledSensor, read value: Double) {
        var new = properties
        switch sensor.kind {
        case .light:
            new.lightLevel = value
            new.lightLevelUnit = (sensor.channel?.unit ?? .lux).rawValue
        case .proximity: new.proximityNear = proximity?.update(raw: value) ?? false
        case .compass: new.compassHeading = value
        }
        publish(new)
    }

    /// A sensor appeared or went: its `Has…` property follows, and one that appears while claimed starts.
    func polledSensorDiscoveryChanged(_ sensor: PolledSensor) {
        if sensor.kind == .proximity { proximity = sensor.channel?.nearLevel.map(ProximityThreshold.init) }
        publish(Self.found(sensor, in: properties))
        if let kind = ProxySensor.allCases.first(where: { $0.polledKind == sensor.kind }),
            !(claims[kind]?.isEmpty ?? true)
        {
            sensor.start()
        }
    }
}
