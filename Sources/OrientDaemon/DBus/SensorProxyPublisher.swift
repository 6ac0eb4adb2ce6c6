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
import Logging
import OrientProtocol
import OrientationCore
import SensorDevices
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// What iio-sensor-proxy's `net.hadess.SensorProxy` shows on the system bus (`[DBus] Compat=yes`): its properties,
/// and their changes signalled as iio-sensor-proxy signals them (the `Has…` properties to everyone, a sensor's
/// readings only to each client that claims it).
///
/// The accelerometer's properties are handed to it by the engine's output (``DaemonEngineOutput``): the state
/// after each change, and the tilt. The ambient light sensor, the proximity sensor and the compass are
/// ``ClaimedSensor``s it makes and is the delegate of, each running while a bus client claims it. It is made before
/// the engine, with the system bus's connection; the ``SensorProxyService``, made after the engine, publishes the
/// objects on that connection, takes the name, and records here who claims what. A failure to reach the bus or to
/// own the name is logged and shown in `status`; the control socket keeps serving.
final class SensorProxyPublisher {
    let loop: EventLoop
    let logger: Logger
    /// The system bus; nil when it cannot be reached, and after shutdown.
    private(set) var connection: BusConnection?
    private(set) var properties = SensorProxyProperties(
        hasAccelerometer: false,
        orientation: SensorProxyProperties.orientation(interface: .unknown, natural: .landscape),
        tilt: SensorProxyProperties.tilt(.undefined)
    )
    /// The claims of each sensor, by the claimant's unique name (kept by the ``SensorProxyService``).
    var claims: [ProxySensor: [String: SensorProxyService.Claim]] = [:]
    /// `ClaimAccelerometer` calls not answered yet: answered once the accelerometer's first reading is classified,
    /// or at ``firstReadingDeadline`` (`SensorProxyPublisher+FirstReading.swift`).
    var unansweredClaims: [OpaquePointer] = []
    /// When the unanswered claims are answered whatever the sensor has read; nil while none waits.
    var firstReadingDeadline: TimerSource?
    /// `[Sensor] PollFallbackSec=`, which bounds the wait for the first reading; the daemon replaces it on reload.
    var pollFallback: Double
    /// Whether a `ClaimAccelerometer` can be answered now, from the state shown last: the device orientation is
    /// classified, or the sensor is not capturing (there is no accelerometer, it failed, or nobody generates any
    /// more), so that no reading will come.
    private(set) var accelerometerHasAnswer = true
    /// The light sensor, the proximity sensor and the compass.
    private var claimedSensors: [ClaimedSensorKind: ClaimedSensor] = [:]
    /// Whether something is near, with its margin, while a proximity sensor is found.
    private var proximity: ProximityThreshold?
    /// Whether the name is owned (the service took it, and the bus is still there).
    private(set) var owned = false
    private var problem: String?

    /// Makes the light, proximity and compass sensors (stopped) and connects to the system bus; on failure logs why and stays off the bus
    /// (``statusReport`` tells).
    init(loop: EventLoop, pollFallback: Double, logger: Logger) {
        self.loop = loop
        self.logger = logger
        self.pollFallback = pollFallback
        for kind in ClaimedSensorKind.allCases {
            let sensor = ClaimedSensor(kind: kind, loop: loop, logger: logger, delegate: self)
            claimedSensors[kind] = sensor
            properties = Self.found(sensor, in: properties)
        }
        proximity = claimedSensors[.proximity]?.channel?.nearLevel.map(ProximityThreshold.init)
        do {
            connection = try BusConnection(loop: loop, description: "orientd-sensor-proxy")
        } catch {
            fail(Self.explain(error))
        }
    }

    deinit {
        shutDown()
    }

    /// Off the bus for good: waiting claims are answered, every claim and claimed sensor stops, the connection
    /// closes; later changes are kept but signalled to nobody.
    func shutDown() {
        answerUnansweredClaims(reason: "the service is stopping")
        claims.removeAll()
        for sensor in claimedSensors.values { sensor.stop() }
        owned = false
        connection = nil
    }

    /// The service owns the name: changes are signalled from now on.
    func nameOwned() {
        owned = true
        logger.info(
            "serving the iio-sensor-proxy API on the system bus",
            metadata: [
                "name": "\(SensorProxyService.busName)", "unique_name": "\(connection?.uniqueName ?? "?")",
            ]
        )
    }

    /// The bus part of `status`.
    var statusReport: StatusReport.Bus {
        StatusReport.Bus(
            name: SensorProxyService.busName,
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

    // MARK: The accelerometer, from the engine's output

    /// Shows the accelerometer's properties of `published`, signalling the ones that changed; answers the waiting
    /// claims once there is an answer.
    func show(_ published: PublishedState) {
        var new = properties
        new.hasAccelerometer = published.hasAccelerometer
        new.orientation = SensorProxyProperties.orientation(
            interface: published.state.interface,
            natural: published.natural
        )
        new.tilt = SensorProxyProperties.tilt(published.tilt)
        publish(new)
        accelerometerHasAnswer = published.state.sensor != .active || published.state.device != .unknown
        answerClaimsIfRead()
    }

    /// Shows a new tilt, signalled to the accelerometer's claimants.
    func show(tilt: DeviceTilt) {
        var new = properties
        new.tilt = SensorProxyProperties.tilt(tilt)
        publish(new)
        answerClaimsIfRead()
    }

    // MARK: The light, proximity and compass sensors, as their claims start and stop them

    /// `sensor` was claimed: a light, proximity or compass sensor starts (reading once before this returns, and so before the reply).
    func claimed(_ sensor: ProxySensor) {
        if let kind = sensor.claimedKind { claimedSensors[kind]?.start() }
    }

    /// A claim of `sensor` ended: a light, proximity or compass sensor stops once nobody claims it.
    func released(_ sensor: ProxySensor) {
        guard let kind = sensor.claimedKind, claims[sensor]?.isEmpty ?? true else { return }
        claimedSensors[kind]?.stop()
        if kind == .proximity { proximity?.reset() }
    }

    // MARK: Signalling

    /// Takes `new` as the properties and signals, on each object, the ones that changed.
    private func publish(_ new: SensorProxyProperties) {
        let names = new.changedNames(from: properties)
        let compassNames = new.changedCompassNames(from: properties)
        properties = new
        guard owned, let connection else { return }
        signal(names, path: SensorProxyService.objectPath, interface: SensorProxyService.interface, on: connection)
        signal(
            compassNames,
            path: SensorProxyService.compassPath,
            interface: SensorProxyService.compassInterface,
            on: connection
        )
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

    /// The value of `property`, with its D-Bus type; nil for a name neither object has.
    func value(of property: String) -> BusConnection.PropertyValue? {
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

    /// `properties` with the presence of `sensor`'s device: a sensor found keeps its last values (a new one's unit
    /// is its own), one gone reads as iio-sensor-proxy's absent sensor.
    private static func found(_ sensor: ClaimedSensor, in properties: SensorProxyProperties) -> SensorProxyProperties {
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

    // MARK: Failures

    /// The service is off the bus: said in the log and in `status`.
    func fail(_ message: String) {
        owned = false
        problem = message
        logger.error("the D-Bus service is off", metadata: ["problem": "\(message)"])
    }

    /// What went wrong and what to do, for the log and `status`.
    static func explain(_ error: BusError) -> String {
        let busName = SensorProxyService.busName
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

extension SensorProxyPublisher: ClaimedSensorDelegate {
    /// A reading of a claimed sensor: its property takes the value, signalled only when it changed.
    func claimedSensor(_ sensor: ClaimedSensor, read value: Double) {
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
    func claimedSensorDiscoveryChanged(_ sensor: ClaimedSensor) {
        if sensor.kind == .proximity { proximity = sensor.channel?.nearLevel.map(ProximityThreshold.init) }
        publish(Self.found(sensor, in: properties))
        if let kind = ProxySensor.allCases.first(where: { $0.claimedKind == sensor.kind }),
            !(claims[kind]?.isEmpty ?? true)
        {
            sensor.start()
        }
    }
}
