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

import OrientationCore

/// The control socket's open connections, and the one way the engine's event lines reach them: a line goes to each
/// connection whose count, in the counts handed with the line, is above zero. Made before the engine (its output
/// sends here); the ``ControlServer`` adds what it accepts and takes away what closes.
final class ControlConnections {
    private var connections: [ClientID: ClientConnection] = [:]

    /// Open connections.
    var count: Int { connections.count }

    /// Takes in a connection just accepted.
    func add(_ connection: ClientConnection) {
        connections[connection.id] = connection
    }

    /// Takes a closed connection away.
    /// - Returns: whether it was there (a connection closes once).
    func remove(_ id: ClientID) -> Bool {
        connections.removeValue(forKey: id) != nil
    }

    /// Sends an event line to every connection that generates in `generation`. A connection over its output bound is
    /// closed on the way (its server takes it away, and the engine its count, once the change is sent).
    func broadcast(_ line: [UInt8], to generation: GenerationCounter) {
        for connection in connections.values where generation.count(for: connection.id) > 0 {
            connection.send(line)
        }
    }

    /// Stops every connection's callbacks and lets them go (their descriptors close with them).
    func shutDown() {
        for connection in connections.values { connection.shutDown() }
        connections.removeAll()
    }
}
