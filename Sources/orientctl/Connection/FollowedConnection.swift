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

import OrientClient
import OrientProtocol

/// A generating connection of a long-running command (`follow`, `suggest`): begun once, then its events and its
/// reconnections forwarded into one stream of triggers that the command's loop takes in order, with whatever else
/// the command adds to the same stream (focus changes, notification signals).
struct FollowedConnection {
    let client: OrientClient
    /// The reply to `begin`: the state to start from.
    let begun: BeginResult
    /// The triggers, in the order they came.
    let triggers: AsyncStream<RotationApplier.Trigger>
    /// Where the command adds its own triggers.
    let sink: AsyncStream<RotationApplier.Trigger>.Continuation
    private let forwarders: [Task<Void, Never>]

    /// Connects to `socketPath` and begins generating.
    /// - Throws: ``CommandFailure`` when orientd cannot be reached or refuses.
    init(socketPath: String) async throws {
        client = OrientClient(socketPath: socketPath)
        do {
            begun = try await client.begin()
        } catch {
            await client.close()
            throw CommandFailure(error)
        }
        (triggers, sink) = AsyncStream.makeStream(of: RotationApplier.Trigger.self)
        let (client, sink) = (client, sink)
        let events = Task {
            for await event in client.events { sink.yield(.state(event.state)) }
        }
        let reconnections = Task {
            var lost = false
            for await connectionState in client.connectionStates {
                switch connectionState {
                case .reconnecting(attempt: 1):
                    lost = true
                    StandardStreams.error("orientctl: orientd went away; reconnecting to \(socketPath)")
                case .connected where lost:
                    lost = false
                    StandardStreams.error("orientctl: reconnected to orientd")
                    sink.yield(.reconnected)
                default:
                    break
                }
            }
        }
        forwarders = [events, reconnections]
    }

    /// Stops forwarding, ends the stream and closes the connection (the daemon ends its generation).
    func close() async {
        for forwarder in forwarders { forwarder.cancel() }
        sink.finish()
        await client.close()
    }
}
