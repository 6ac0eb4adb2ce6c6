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

/// Generation (PROTOCOL.md `begin`/`end`): counted per client; the first begin starts the sensors, the last end (or
/// the last generating client gone) stops them.
extension Engine {
    /// Adds one to a client's count, starting the sensors when it is the first (they report their new status from
    /// inside: one change with the begin).
    func begin(_ client: ClientID) -> GenerationCounter.Update {
        asOneSentChange {
            let update = generation.begin(client)
            if update.transition == .started { sensors.start() }
            return update
        }
    }

    /// Takes one from a client's count, stopping the sensors when the total reaches 0.
    /// - Throws: ``NotGeneratingError`` when its count is 0; nothing changes then.
    func end(_ client: ClientID) throws(NotGeneratingError) -> GenerationCounter.Update {
        let update = try generation.end(client)
        if update.transition == .stopped { asOneSentChange { stopGenerating() } }
        return update
    }

    /// A connection closed, or a bus client released its claim or left the bus: its count and constraint go.
    /// During a send (a connection dropped for not reading) it waits until the send is over.
    func clientClosed(_ client: ClientID) {
        if publisher.deferClose(client) { return }
        asOneSentChange {
            if generation.remove(client) == .stopped { stopGenerating() }
            record(policy.removeClient(client))
        }
    }

    private func stopGenerating() {
        sensors.stop()
        // Nobody generates: the angle is unknown; the decision stands.
        hinge.stop()
        updateSensorState(.stopped)
        // Nobody receives events now; the state (device unknown) is what `get` shows.
        publisher.discard()
        output.stateChanged(to: published)
    }
}
