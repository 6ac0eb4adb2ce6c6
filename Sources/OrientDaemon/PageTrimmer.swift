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
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

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

/// Gives back the code pages the daemon has stopped using, on ``TrimSchedule``'s rule: a one-shot timer on the loop.
///
/// Code and read-only data are unmapped and stay in the page cache, so that what runs again (the next turn, the next
/// claim) comes back in microseconds, without reading the disk. The first time, at start-up, the data segments'
/// pages that were only read (parsing, discovery, the bus set-up) are paged out too (``ResidentPages/Mode/evict``).
final class PageTrimmer {
    private let loop: EventLoop
    private let logger: Logger
    private var schedule = TrimSchedule()
    private var timer: TimerSource?
    /// How many times the pages were given back: the first time is the start-up's.
    private(set) var count = 0

    init(loop: EventLoop, logger: Logger) {
        self.loop = loop
        self.logger = logger
    }

    /// The daemon has settled: gives back its unused pages a moment later.
    func request() {
        guard let deadline = schedule.request(at: loop.now) else { return }
        if let timer {
            timer.schedule(at: deadline)
            return
        }
        do {
            // Half a second of slack: the kernel may fold this wake-up into another.
            timer = try loop.addTimer(at: deadline, accuracy: 0.5) { [unowned self] in self.trim() }
        } catch {
            // Without a timer the pages stay: the daemon serves as before, with more memory.
            schedule = TrimSchedule()
            logger.debug("cannot arm the timer that gives back unused pages", metadata: ["error": "\(error)"])
        }
    }

    private func trim() {
        let mode: ResidentPages.Mode = count == 0 ? .evict : .unmap
        schedule.fired(at: loop.now)
        count += 1
        let started = Self.cpuTime()
        let outcome = ResidentPages.release(mode)
        let took = (Self.cpuTime() - started) * 1000
        logger.debug(
            "unused pages given back",
            metadata: [
                "mode": "\(mode)", "advised_kB": "\(outcome.advised / 1024)",
                "resident_before_kB": "\(outcome.residentBefore / 1024)", "cpu_ms": "\(took)",
            ]
        )
    }

    /// The thread's CPU time in seconds: what giving back the pages cost, kernel time included.
    private static func cpuTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
