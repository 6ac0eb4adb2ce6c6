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

import Logging
import OrientProtocol
import OrientationCore
import SensorDevices

/// The requests of PROTOCOL.md, answered for one connection at a time: who may make each (``Authorizer``), what
/// it does to the engine, and the reply line; the events of the change follow the reply.
final class ControlRequests {
    private let engine: Engine
    private let logger: Logger
    /// Who may lock, unlock and constrain; a reload with a new `[Control]` section replaces it.
    var authorizer: Authorizer
    /// Who answers `status` (``DaemonStatus``, from the parts that own what it reports); nil: `status` fails.
    private let status: (any StatusSource)?
    /// Who holds each connection's constraint, for `status`.
    private var holders = ConstraintHolders()

    init(engine: Engine, authorizer: Authorizer, status: (any StatusSource)? = nil, logger: Logger) {
        self.engine = engine
        self.authorizer = authorizer
        self.status = status
        self.logger = logger
    }

    /// Answers one request of a connection: hands the reply line to `send`, then sends the events it caused.
    func respond(
        to request: Request,
        from client: ClientID,
        peer: PeerCredentials?,
        send: ([UInt8]) -> Void
    ) {
        engine.answer(
            { () throws(ProtocolError) -> [UInt8] in try reply(to: request, from: client, peer: peer) },
            onError: { error in MessageEncoder.error(id: request.id, error) },
            send: send
        )
    }

    private func reply(
        to request: Request,
        from client: ClientID,
        peer: PeerCredentials?
    ) throws(ProtocolError) -> [UInt8] {
        if request.method.needsController { try authorize(request.method, peer: peer) }
        switch (request.method, request.parameters) {
        case (.hello, _):
            let device = engine.sensors.display.accelerometer?.name
            let sensor = HelloResult.Sensor(status: engine.sensorState, device: device)
            return MessageEncoder.result(id: request.id, HelloResult(version: OrientdVersion.current, sensor: sensor))
        case (.get, _):
            return MessageEncoder.result(id: request.id, engine.state)
        case (.begin, _):
            let update = engine.begin(client)
            return MessageEncoder.result(id: request.id, BeginResult(count: update.count, state: engine.state))
        case (.end, _):
            let update: GenerationCounter.Update
            do {
                update = try engine.end(client)
            } catch {
                throw ProtocolError(.notGenerating, "end without a matching begin: this connection's count is 0")
            }
            return MessageEncoder.result(id: request.id, EndResult(count: update.count))
        case (.lock, .lock(let target)):
            try changeLock { (policy: inout RotationPolicy) throws(PolicyError) in
                switch target {
                case .current: _ = try policy.lockCurrent()
                case .orientation(let orientation): _ = try policy.setLock(InterfaceOrientationMask(orientation))
                case .mask(let mask): _ = try policy.setLock(mask)
                }
            }
            return MessageEncoder.result(id: request.id, engine.state)
        case (.unlock, _):
            try changeLock { (policy: inout RotationPolicy) throws(PolicyError) in _ = try policy.setLock(nil) }
            return MessageEncoder.result(id: request.id, engine.state)
        case (.constrain, .constrain(let mask, let holder)):
            do {
                try engine.constrain(mask, for: client)
            } catch {
                throw Self.protocolError(error)
            }
            holders.record(mask, holder: holder, for: client, peer: peer)
            return MessageEncoder.result(id: request.id, engine.state)
        case (.tabletMode, .tabletMode(let setting)):
            do {
                try engine.setManualTabletMode(setting.manualTabletMode)
            } catch {
                throw ProtocolError(.stateNotSaved, "the tablet mode could not be saved, nothing changed: \(error)")
            }
            return MessageEncoder.result(id: request.id, engine.state)
        case (.status, _):
            guard let status else { throw ProtocolError(.internal, "the status is not available while starting") }
            var report = status.statusReport()
            report.constraints = holders.report
            return MessageEncoder.result(id: request.id, report)
        default:
            throw ProtocolError(.internal, "parameters do not match the method")
        }
    }

    /// A new connection's identity, unique among the connections and the bus clients.
    func connectionOpened() -> ClientID {
        engine.newClientID()
    }

    /// Whether a connection receives events (its count is above zero): one whose client closed its sending side
    /// stays while it does.
    func generates(_ client: ClientID) -> Bool {
        engine.isGenerating(client)
    }

    /// A connection closed: its constraint and its count go with it.
    func clientClosed(_ client: ClientID) {
        holders.record(nil, holder: nil, for: client, peer: nil)
        engine.clientClosed(client)
    }

    /// Lets a controller through; refuses anyone else, saying why.
    private func authorize(_ method: Request.Method, peer: PeerCredentials?) throws(ProtocolError) {
        if let peer, authorizer.isController(peer) { return }
        let why = peer.map { authorizer.explain($0) } ?? "the peer's credentials are unknown"
        logger.notice("request refused", metadata: ["method": "\(method.rawValue)", "reason": "\(why)"])
        throw ProtocolError(.permissionDenied, "\(method.rawValue) is for controllers: \(why)")
    }

    private func changeLock(_ edit: (inout RotationPolicy) throws(PolicyError) -> Void) throws(ProtocolError) {
        do {
            try engine.changeLock(edit)
        } catch {
            switch error {
            case .refused(let refusal):
                throw Self.protocolError(refusal)
            case .notSaved(let failure):
                throw ProtocolError(.stateNotSaved, "the lock could not be saved, nothing changed: \(failure)")
            }
        }
    }

    private static func protocolError(_ error: PolicyError) -> ProtocolError {
        switch error.reason {
        case .emptyMask: ProtocolError(.emptyMask, error.description)
        case .invalidOrientation(let message): ProtocolError(.invalidOrientation, message)
        }
    }
}

/// The source of the `status` result.
protocol StatusSource: AnyObject {
    /// The `status` result now.
    func statusReport() -> StatusReport
}
