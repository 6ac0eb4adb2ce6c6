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
        // The descriptor the trims register the mappings with is opened now, with the daemon's others.
        ResidentPages.prepare()
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
        // Whether the trim is logged is asked before it: after it, only what serving runs anyway should run (the
        // loop's own code), or the logger's code would come back, with its neighbours, and stay until the next trim.
        guard logger.logLevel <= .debug else {
            ResidentPages.release(mode)
            return
        }
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
