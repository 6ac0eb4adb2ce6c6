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

/// When the daemon gives back the pages of code it has stopped using (``ResidentPages``): a second after it has
/// started, and a second after it settles (the device still at the idle pace, or the sensor stopped), but never
/// within ``minimumInterval`` of the last time, so that a device moved every few seconds does not make it a habit.
///
/// A pure value, so that the rule is tested without a loop; ``PageTrimmer`` arms a timer with it.
struct TrimSchedule: Equatable {
    /// How long after a request the pages are given back: what settling still runs (the bus set-up's replies, the
    /// sensor's last reads, the events sent) has run by then.
    static let settleDelay = 1.0
    /// The shortest time between two trims.
    static let minimumInterval = 10.0

    /// When the pages were last given back; nil before the first time.
    private(set) var last: Double?
    /// The deadline armed; nil when none is.
    private(set) var pending: Double?

    /// Someone settled at `now`: the deadline to arm, or nil when one is armed already (it covers this request).
    mutating func request(at now: Double) -> Double? {
        guard pending == nil else { return nil }
        var deadline = now + Self.settleDelay
        if let last { deadline = max(deadline, last + Self.minimumInterval) }
        pending = deadline
        return deadline
    }

    /// The timer fired at `now`: the pages are given back.
    mutating func fired(at now: Double) {
        pending = nil
        last = now
    }
}
