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

import EventLoop
import Logging
import OrientProtocol
import OrientationCore
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// The control socket: accepts connections into ``ControlConnections`` (where the engine's events reach them) and
/// hands their requests to ``ControlRequests``. One IO source for the listener, one per connection.
final class ControlServer {
    private let loop: EventLoop
    private let connections: ControlConnections
    private let requests: ControlRequests
    private let logger: Logger
    private let listener: FileDescriptor
    /// The socket file to remove at shutdown: only one the daemon made, never an inherited one.
    private let ownedPath: String?
    /// `MaxClients=`; a reload changes it for new connections.
    var maxClients: Int
    /// `OutputLimitKiB=` in bytes; a reload changes it for new connections.
    var outputLimit: Int
    private var source: IOSource?

    /// Serves on `listener` (already listening): what it accepts goes into `connections`, their requests to
    /// `requests`.
    init(
        listener: FileDescriptor,
        ownedPath: String?,
        settings: DaemonSettings,
        loop: EventLoop,
        connections: ControlConnections,
        requests: ControlRequests,
        logger: Logger
    ) throws(EventLoopError) {
        self.loop = loop
        self.connections = connections
        self.requests = requests
        self.logger = logger
        self.listener = listener
        self.ownedPath = ownedPath
        maxClients = settings.maxClients
        outputLimit = settings.outputLimit
        source = try loop.addIO(fd: listener.rawValue, events: .readable) { [unowned self] _ in self.acceptAll() }
    }

    /// Closes every connection and the listener; removes the socket file if the daemon made it.
    func shutDown() {
        source = nil
        connections.shutDown()
        listener.close()
        if let ownedPath { unlink(ownedPath) }
    }

    private func acceptAll() {
        while true {
            let fd: FileDescriptor
            do {
                guard let accepted = try SocketCalls.acceptConnection(listener) else { return }
                fd = accepted
            } catch {
                logger.error("cannot accept a connection", metadata: ["error": "\(error)"])
                return
            }
            let id = requests.connectionOpened()
            let client: ClientConnection
            do {
                client = try ClientConnection(id: id, fd: fd, loop: loop, outputLimit: outputLimit, delegate: self)
            } catch {
                logger.error("cannot watch a connection", metadata: ["error": "\(error)"])
                fd.close()
                continue
            }
            guard connections.count < maxClients else {
                logger.warning("connection refused: MaxClients= reached", metadata: ["max_clients": "\(maxClients)"])
                client.sendAndClose(
                    MessageEncoder.error(
                        id: nil,
                        ProtocolError(.tooManyClients, "the daemon serves at most \(maxClients) connections")
                    ),
                    reason: "too many clients"
                )
                continue
            }
            connections.add(client)
            logger.debug(
                "connection",
                metadata: ["client": "\(id.rawValue)", "uid": "\(client.peer.map { String($0.userID) } ?? "?")"]
            )
        }
    }
}

extension ControlServer: ClientConnectionDelegate {
    func connection(_ client: ClientConnection, received line: [UInt8]) {
        switch RequestDecoder.decode(line) {
        case .failure(let id, let error):
            client.send(MessageEncoder.error(id: id, error))
        case .request(let request):
            requests.respond(to: request, from: client.id, peer: client.peer) { reply in client.send(reply) }
        }
    }

    func connectionStaysAfterReadClose(_ client: ClientConnection) -> Bool {
        requests.generates(client.id)
    }

    func connectionClosed(_ client: ClientConnection, reason: String) {
        guard connections.remove(client.id) else { return }
        logger.debug("connection closed", metadata: ["client": "\(client.id.rawValue)", "reason": "\(reason)"])
        if client.droppedForNotReading {
            logger.warning(
                "dropped a connection",
                metadata: ["client": "\(client.id.rawValue)", "reason": "\(reason)"]
            )
        }
        requests.clientClosed(client.id)
    }
}
