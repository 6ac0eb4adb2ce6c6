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

/// Counts, per client, how often it has begun generating orientation notifications
/// (UIDevice's begin/endGeneratingDeviceOrientationNotifications, system-wide).
///
/// The sensor runs while the total is above zero; the counter tells its caller when the total
/// crosses zero either way.
public struct GenerationCounter: Sendable {
    /// What a call did to the total.
    public enum Transition: Sendable, Hashable {
        /// The total stayed on the same side of zero.
        case none
        /// The total went from 0 to 1: start the sensor.
        case started
        /// The total went to 0: stop the sensor.
        case stopped
    }

    /// The result of ``begin(_:)`` and ``end(_:)``.
    public struct Update: Sendable, Hashable {
        /// The client's own count after the call.
        public var count: Int
        /// What happened to the total.
        public var transition: Transition
    }

    /// The counts of the clients whose count is above zero.
    public private(set) var counts: [ClientID: Int] = [:]
    /// The sum of all counts.
    public private(set) var total = 0

    /// An empty counter: nobody generating.
    public init() {}

    /// Whether anybody is generating.
    public var isGenerating: Bool { total > 0 }

    /// The client's own count (0 for a client never seen).
    public func count(for client: ClientID) -> Int {
        counts[client, default: 0]
    }

    /// Adds one to the client's count.
    public mutating func begin(_ client: ClientID) -> Update {
        let count = counts[client, default: 0] + 1
        counts[client] = count
        total += 1
        return Update(count: count, transition: total == 1 ? .started : .none)
    }

    /// Takes one from the client's count.
    /// - Throws: ``NotGeneratingError`` when its count is already 0; nothing changes then.
    public mutating func end(_ client: ClientID) throws(NotGeneratingError) -> Update {
        guard let current = counts[client], current > 0 else { throw NotGeneratingError(client: client) }
        let count = current - 1
        counts[client] = count == 0 ? nil : count
        total -= 1
        return Update(count: count, transition: total == 0 ? .stopped : .none)
    }

    /// Takes all of a client's count away, as when its connection closes.
    public mutating func remove(_ client: ClientID) -> Transition {
        guard let count = counts.removeValue(forKey: client), count > 0 else { return .none }
        total -= count
        return total == 0 ? .stopped : .none
    }
}

/// `end` from a client whose count is already 0.
public struct NotGeneratingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The client that called `end`.
    public var client: ClientID

    public var description: String { "not generating: end without a matching begin" }
}
