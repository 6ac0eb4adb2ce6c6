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

/// polkit's answers for the bus clients that claim sensors, and the claims waiting for one: a value that takes each
/// event and says what to do, so that the ``PolkitAuthority`` asks polkit once per client, whatever its number of
/// claims, and never while an answer for it is known.
///
/// An answer is kept per unique bus name, as polkit's own agents keep theirs, until polkit says that its policy, its
/// rules or the sessions changed (its `Changed` signal), or the client leaves the bus (a unique name is never given
/// again). No answer (polkit does not run, or failed) is not kept: the next claim asks again.
struct PolkitAnswers<Pending> {
    /// What to do with a claim.
    enum Step: Equatable {
        /// The answer is known: authorized or not.
        case answer(Bool)
        /// Ask polkit: the claim waits for its answer.
        case ask
        /// A question for this client is on its way: the claim waits with it.
        case wait
    }

    /// The most answers kept; beyond it all are dropped (polkit is then asked again).
    static var limit: Int { 1024 }

    private var known: [String: Bool] = [:]
    private var waiting: [String: [Pending]] = [:]

    /// The answers kept now.
    var count: Int { known.count }

    /// A claim of `sender`: answered from what is known, or kept until polkit answers.
    mutating func claim(by sender: String, _ pending: Pending) -> Step {
        if let authorized = known[sender] { return .answer(authorized) }
        if waiting[sender] != nil {
            waiting[sender]?.append(pending)
            return .wait
        }
        waiting[sender] = [pending]
        return .ask
    }

    /// polkit answered for `sender` (nil: it gave no answer); returns the claims that waited for it.
    mutating func answered(_ sender: String, authorized: Bool?) -> [Pending] {
        // A client that left (or a question not asked) has nothing to keep.
        guard let claims = waiting.removeValue(forKey: sender) else { return [] }
        if let authorized {
            if known.count >= Self.limit { known.removeAll() }
            known[sender] = authorized
        }
        return claims
    }

    /// polkit's policy, rules or sessions changed: every answer is asked again.
    mutating func changed() {
        known.removeAll()
    }

    /// `sender` left the bus: its answer goes, and so do the claims that waited (returned, to be dropped).
    mutating func left(_ sender: String) -> [Pending] {
        known[sender] = nil
        return waiting.removeValue(forKey: sender) ?? []
    }

    /// Every waiting claim, taken (at shutdown).
    mutating func takeAllWaiting() -> [Pending] {
        defer { waiting.removeAll() }
        return waiting.values.flatMap { $0 }
    }
}
