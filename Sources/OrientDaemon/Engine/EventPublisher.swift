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

/// Sends the events of each change to the engine's output, in PROTOCOL.md's order, all with the state and `seq`
/// after the change: the one owner of the ``EventBatch``.
///
/// The rules that keep the events in order are its methods, not its callers' memory: the events of a change wait
/// while it is being made (``holding(_:)``) and go out in one ``send(_:)``; a send under way is not interrupted by
/// another; a connection closed during a send (dropped for not reading) is handed back when the send is over, so
/// that its own change's events follow in `seq` order. A reference type: a send calls out to the output, which may
/// come back here (a connection closed) before the send is over.
final class EventPublisher {
    private var batch = EventBatch()
    private let output: any EngineOutput
    private let logger: Logger

    init(output: any EngineOutput, logger: Logger) {
        self.output = output
        self.logger = logger
    }

    /// The count of changes so far (PROTOCOL.md `seq`).
    var seq: UInt64 { batch.seq }

    /// Notes an event of the change being made (the first one of a change counts it in ``seq``).
    func note(_ name: OrientationEvent.Name, previous: EventBatch.Previous = .none) {
        batch.note(name, previous: previous)
    }

    /// Notes the events of a policy change: `allowed`, `device`, `interface`, `suggestion`. True when the suggestion
    /// changed.
    func note(_ change: PolicyChangeSummary) -> Bool {
        if change.allowedOrLock { note(.allowed) }
        if let previous = change.previousDevice { note(.device, previous: .name(previous.wireName)) }
        if let previous = change.previousInterface { note(.interface, previous: .name(previous.wireName)) }
        guard let previous = change.previousSuggestion else { return false }
        note(.suggestion, previous: previous.map { .name($0.wireName) } ?? .none)
        return true
    }

    /// Drops the events noted so far: nobody is to receive them.
    func discard() {
        batch.discard()
    }

    /// Runs `body` as one change: the events it notes wait until it returns, whatever it calls out to (a sensor
    /// reporting from inside its `start()`). When `body` throws, nothing it noted is sent.
    func holding<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        batch.hold()
        defer { batch.release() }
        do {
            return try body()
        } catch {
            batch.discard()
            throw error
        }
    }

    /// Keeps a connection closed during a send until the send is over.
    /// - Returns: false when no send is under way: take it away now.
    func deferClose(_ client: ClientID) -> Bool {
        batch.deferClose(client)
    }

    /// Sends the events noted since the last send, with the state of `published` (made once, after the change), and
    /// then `published` to the output; nothing while a change is held or a send is under way.
    /// - Parameters:
    ///   - published: what the outputs show after the change.
    ///   - generation: the counts after the change: who receives the events.
    /// - Returns: the connections closed during the send, in order, to take away now.
    func send(_ published: () -> PublishedState, to generation: GenerationCounter) -> [ClientID] {
        guard let events = batch.beginSending() else { return [] }
        let current = published()
        for (name, previous) in events {
            output.deliver(
                MessageEncoder.event(EventBatch.event(name, previous: previous, state: current.state)),
                to: generation
            )
        }
        output.stateChanged(to: current)
        if logger.logLevel <= .debug {
            logger.debug(
                "state",
                metadata: [
                    "device": "\(current.state.device)", "interface": "\(current.state.interface)",
                    "seq": "\(current.state.seq)",
                ]
            )
        }
        return batch.endSending()
    }
}
