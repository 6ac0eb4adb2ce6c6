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

import OrientProtocol
import OrientationCore

/// The events of the change being made, until they are sent, and `seq`, the count of changes.
///
/// Every event of one change carries the same `seq`: the first event noted after a send counts the change. The
/// events wait while the batch is held (a request is handled: its reply goes first) and while a send is under way
/// (a connection closed by a send changes the state again, after the events of the change being sent). Connections
/// closed during a send wait here too, so that they are taken away once it is over.
struct EventBatch {
    /// The value an event reports as `previous`.
    enum Previous: Hashable {
        /// None (`allowed`).
        case none
        /// A name: an orientation, or the sensor's status.
        case name(String)
        /// The `tablet_mode` before (nil: null).
        case tabletMode(Bool?)
    }

    /// The count of changes so far (PROTOCOL.md `seq`).
    private(set) var seq: UInt64 = 0
    /// The events noted since the last send, by name; sent in the order of ``OrientationEvent/Name``.
    private var pending: [OrientationEvent.Name: Previous] = [:]
    /// How many callers hold the events back.
    private var holds = 0
    /// Whether the events of a change are being sent.
    private(set) var isSending = false
    /// Connections closed while a send was under way.
    private var closedWhileSending: [ClientID] = []

    /// Whether no event waits.
    var isEmpty: Bool { pending.isEmpty }

    /// Notes an event of the change being made. The first one counts the change in ``seq``; a second event of the
    /// same name keeps the first one's `previous` (the value before the whole change).
    mutating func note(_ name: OrientationEvent.Name, previous: Previous = .none) {
        if pending.isEmpty { seq += 1 }
        if pending[name] == nil { pending[name] = previous }
    }

    /// Drops the events noted (nobody is to receive them); ``seq`` keeps its count.
    mutating func discard() {
        pending.removeAll(keepingCapacity: true)
    }

    /// Holds the events back until as many ``release()``s.
    mutating func hold() { holds += 1 }

    /// Ends one ``hold()``.
    mutating func release() {
        precondition(holds > 0, "EventBatch.release() without a hold()")
        holds -= 1
    }

    /// Starts a send: the events to send now, in PROTOCOL.md's order, or nil when there are none, or they are
    /// held, or a send is under way. Call ``endSending()`` after sending them.
    mutating func beginSending() -> [(name: OrientationEvent.Name, previous: Previous)]? {
        guard !pending.isEmpty, holds == 0, !isSending else { return nil }
        isSending = true
        let events = OrientationEvent.Name.allCases.compactMap { name in pending[name].map { (name, $0) } }
        pending.removeAll(keepingCapacity: true)
        return events
    }

    /// Ends a send: the connections closed meanwhile, to take away now, in the order they closed.
    mutating func endSending() -> [ClientID] {
        isSending = false
        defer { closedWhileSending.removeAll() }
        return closedWhileSending
    }

    /// Keeps a connection closed during a send for ``endSending()``.
    /// - Returns: false when no send is under way (take it away now).
    mutating func deferClose(_ client: ClientID) -> Bool {
        guard isSending else { return false }
        closedWhileSending.append(client)
        return true
    }

    /// The event `name` with `previous`, carrying `state`.
    static func event(_ name: OrientationEvent.Name, previous: Previous, state: OrientationState) -> OrientationEvent {
        switch previous {
        case .none: OrientationEvent(name: name, state: state)
        case .name(let value): OrientationEvent(name: name, previous: value, state: state)
        case .tabletMode(let value): OrientationEvent(tabletModeChangedFrom: value, state: state)
        }
    }
}
