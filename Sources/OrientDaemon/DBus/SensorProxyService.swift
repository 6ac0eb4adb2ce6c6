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
import Logging
import OrientationCore
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// iio-sensor-proxy's D-Bus API on the system bus (`[DBus] Compat=yes`), so that GNOME (mutter), KDE (KWin) and
/// other clients of `net.hadess.SensorProxy` read orientd's orientation without any change on their side: the
/// objects and their methods, the claims, and the name. What the objects show, and the signals of its changes,
/// are the ``SensorProxyPublisher``'s, which the engine's output hands the state.
///
/// Each bus client that calls `ClaimAccelerometer` holds one generation count, like a socket connection's
/// `begin`, until it calls `ReleaseAccelerometer` or leaves the bus (an `sd_bus_track` per claim); its claim is
/// answered once the first reading is in (`SensorProxyPublisher+FirstReading.swift`). The ambient light sensor,
/// the proximity sensor and the compass each run while at least one bus client claims them (`ClaimLight`,
/// `ClaimProximity`, `ClaimCompass`), and their first claim reads them before it is answered. As iio-sensor-proxy
/// 3.7 and later, it asks polkit whether a client may claim (``PolkitAuthority``), after root and the users of
/// `[DBus] ClaimUsers=`, who may; where polkit does not answer, its own rules decide as polkit's defaults would: the
/// user of an active seat session may (``ClaimPolicy``).
final class SensorProxyService {
    static let busName = "net.hadess.SensorProxy"
    static let objectPath = "/net/hadess/SensorProxy"
    static let interface = "net.hadess.SensorProxy"
    static let compassPath = "/net/hadess/SensorProxy/Compass"
    static let compassInterface = "net.hadess.SensorProxy.Compass"

    private let engine: Engine
    /// What the objects show; it keeps the claims.
    let publisher: SensorProxyPublisher
    private let logger: Logger
    private var slots: [OpaquePointer] = []
    private var tables: [UnsafeMutablePointer<sd_bus_vtable>] = []
    /// Who may claim a sensor without polkit (root, `[DBus] ClaimUsers=`), and, where polkit does not answer, by
    /// orientd's own rules (seat users); the daemon replaces it on reload.
    var claimPolicy: ClaimPolicy
    /// polkit, asked about each claim that ``claimPolicy`` does not allow by itself; nil off the bus.
    private var polkit: PolkitAuthority?

    /// Shows the engine's state as it is now, publishes the objects on `publisher`'s connection and takes the name;
    /// on failure logs why and stays off the bus (`status` tells).
    init(publisher: SensorProxyPublisher, engine: Engine, claimPolicy: ClaimPolicy, logger: Logger) {
        self.engine = engine
        self.publisher = publisher
        self.logger = logger
        self.claimPolicy = claimPolicy
        // Before the name is owned: shown, not signalled.
        publisher.show(engine.published)
        guard let connection = publisher.connection else { return }
        do {
            try publish(on: connection)
            polkit = try PolkitAuthority(connection: connection, delegate: self, logger: logger)
            try connection.requestName(Self.busName)
            publisher.nameOwned()
        } catch {
            publisher.fail(SensorProxyPublisher.explain(error))
        }
    }

    deinit {
        shutDown()
    }

    /// Off the bus for good: the objects go, then the publisher's claims and connection.
    func shutDown() {
        polkit?.shutDown()
        polkit = nil
        for slot in slots { sd_bus_slot_unref(slot) }
        slots.removeAll()
        publisher.shutDown()
        for table in tables { table.deallocate() }
        tables.removeAll()
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
        return service.publisher.value(of: String(cString: property))?.append(to: reply) ?? -ENOENT
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

    // MARK: Claims

    private func call(_ message: OpaquePointer) -> Int32 {
        let member = sd_bus_message_get_member(message).map { String(cString: $0) } ?? ""
        guard let sender = sd_bus_message_get_sender(message).map({ String(cString: $0) }),
            let sensor = ProxySensor(method: member)
        else { return orientd_bus_reply_empty(message) }
        guard member.hasPrefix("Claim") else {
            release(sensor, of: sender, reason: member)
            return orientd_bus_reply_empty(message)
        }
        guard let userID = Self.senderUserID(message) else {
            let reason = "the bus does not tell which user sent the claim, so it cannot be allowed"
            return answer(message, of: sensor, by: sender, ClaimPolicy.Decision(isAllowed: false, reason: reason))
        }
        if let decision = claimPolicy.decideWithoutPolkit(userID: userID) {
            return answer(message, of: sensor, by: sender, decision, userID: userID)
        }
        guard let polkit else {
            return answer(message, of: sensor, by: sender, claimPolicy.decide(userID: userID), userID: userID)
        }
        guard let verdict = polkit.check(message, of: sensor, by: sender) else { return 1 }
        return answer(message, of: sensor, by: sender, decision(verdict, userID: userID), userID: userID)
    }

    /// The decision on a claim of `userID` from polkit's verdict; orientd's own rules when polkit gave none.
    private func decision(_ verdict: PolkitAuthority.Verdict, userID: UInt32) -> ClaimPolicy.Decision {
        switch verdict {
        case .authorized: ClaimPolicy.Decision(isAllowed: true, reason: "polkit authorizes \(PolkitAuthority.action)")
        case .notAuthorized: claimPolicy.polkitDenial(userID: userID)
        case .noAnswer: claimPolicy.decide(userID: userID)
        }
    }

    /// Answers a `Claim…` call by `decision`: `AccessDenied` (and a warning) when refused; else the claim, answered now
    /// or, for the accelerometer, at its first reading.
    /// - Returns: the method handler's result.
    private func answer(
        _ message: OpaquePointer,
        of sensor: ProxySensor,
        by sender: String,
        _ decision: ClaimPolicy.Decision,
        userID: UInt32? = nil
    ) -> Int32 {
        guard decision.isAllowed else {
            logger.warning(
                "sensor claim refused",
                metadata: [
                    "sensor": "\(sensor.rawValue)", "bus_client": "\(sender)",
                    "uid": "\(userID.map(String.init) ?? "?")", "reason": "\(decision.reason)",
                ]
            )
            var error = sd_bus_error()
            defer { sd_bus_error_free(&error) }
            sd_bus_error_set(&error, "org.freedesktop.DBus.Error.AccessDenied", decision.reason)
            return sd_bus_reply_method_error(message, &error)
        }
        // A claim that cannot be followed is refused, so that the client knows and may claim again.
        if let refused = claim(sensor, by: sender, message: message) { return -refused }
        if sensor == .accelerometer, !publisher.accelerometerHasAnswer { return publisher.answerLater(message) }
        return orientd_bus_reply_empty(message)
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
    /// claim of a light, proximity or compass sensor starts it, which reads it once before this returns (and so before the reply). A
    /// claim of a sensor that is not there is kept, so that the sensor starts when it appears.
    /// - Returns: the errno of a claim that cannot be followed (and is refused); nil when it holds.
    private func claim(_ sensor: ProxySensor, by sender: String, message: OpaquePointer) -> Int32? {
        guard publisher.claims[sensor]?[sender] == nil, let connection = publisher.connection else { return nil }
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
        publisher.claims[sensor, default: [:]][sender] = claim
        logger.info(
            "sensor claimed on the bus",
            metadata: [
                "sensor": "\(sensor.rawValue)", "bus_client": "\(sender)",
                "pid": "\(claim.pid.map(String.init) ?? "?")", "command": "\(claim.command ?? "?")",
            ]
        )
        if let id = claim.id { _ = engine.begin(id) }
        publisher.claimed(sensor)
        return nil
    }

    private func release(_ sensor: ProxySensor, of name: String, reason: String) {
        guard let claim = publisher.claims[sensor]?.removeValue(forKey: name) else { return }
        logger.info(
            "sensor released on the bus",
            metadata: ["sensor": "\(sensor.rawValue)", "bus_client": "\(name)", "reason": "\(reason)"]
        )
        if let id = claim.id { engine.clientClosed(id) }
        publisher.released(sensor)
    }

    /// The bus went away (dbus-daemon stopped): every claim ends, and the service is off until a restart.
    private func disconnected() {
        // Claims waiting for polkit go unanswered: there is no bus to answer them on.
        polkit?.shutDown()
        polkit = nil
        publisher.answerUnansweredClaims(reason: "the bus disconnected")
        publisher.fail(
            "the system bus disconnected: \(Self.busName) is no longer served (restart orientd once the bus is "
                + "back); the control socket keeps serving"
        )
        for (sensor, claimants) in publisher.claims {
            for name in claimants.keys { release(sensor, of: name, reason: "the bus disconnected") }
        }
    }
}

extension SensorProxyService: PolkitAuthorityDelegate {
    func polkit(
        _ verdict: PolkitAuthority.Verdict,
        claim message: OpaquePointer,
        of sensor: ProxySensor,
        by sender: String
    ) {
        let userID = Self.senderUserID(message)
        let outcome =
            userID.map { decision(verdict, userID: $0) }
            ?? ClaimPolicy.Decision(isAllowed: false, reason: "the bus does not tell which user sent the claim")
        let result = answer(message, of: sensor, by: sender, outcome, userID: userID)
        if result < 0 {
            // What sd-bus does for a handler that fails: an error reply from the errno.
            _ = sd_bus_reply_method_errno(message, -result, nil)
        }
    }
}
