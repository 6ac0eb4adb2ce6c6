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

import CSystemd

/// A CLOCK_MONOTONIC timer, one-shot or repeating: owns its `sd_event_source`, and is cancelled when released.
///
/// Created by ``EventLoop/addTimer(at:accuracy:handler:)`` or
/// ``EventLoop/addRepeatingTimer(interval:accuracy:handler:)``. The handler may release the source, disable it or
/// reschedule it from inside itself; a handler that refers to its own source keeps it alive (a reference cycle)
/// until it releases it or the owner sets its variable to `nil`.
public final class TimerSource {
    /// How the timer re-arms after firing.
    enum Kind {
        /// Fires once per scheduling, then turns itself off (`SD_EVENT_ONESHOT`).
        case oneShot
        /// Stays on (`SD_EVENT_ON`) and moves its deadline on by `interval` microseconds before each handler call.
        case repeating(interval: UInt64)
    }

    /// The `sd_event_source*` this object owns.
    private let source: OpaquePointer
    /// One-shot or repeating.
    private let kind: Kind
    /// Called at each firing; stored once so that dispatch allocates nothing.
    private let handler: () -> Void

    init(
        event: OpaquePointer,
        deadline: UInt64,
        accuracy: UInt64,
        kind: Kind,
        handler: @escaping () -> Void
    ) throws(EventLoopError) {
        var source: OpaquePointer?
        // The userdata is set below, once `self` exists; nothing dispatches in between (one thread, no iteration).
        let result = sd_event_add_time(
            event,
            &source,
            CLOCK_MONOTONIC,
            deadline,
            accuracy,
            { _, deadline, userdata in
                TimerSource.dispatch(userdata, deadline: deadline)
                return 0
            },
            nil
        )
        try EventLoopError.check(result, "sd_event_add_time", "CLOCK_MONOTONIC, \(deadline) µs")
        self.source = source!
        self.kind = kind
        self.handler = handler
        // Unretained: the owner keeps this object alive, and deinit disables the source before it dies.
        sd_event_source_set_userdata(self.source, Unmanaged.passUnretained(self).toOpaque())
        // sd-event creates every timer one-shot.
        setEnabled(true)
    }

    deinit {
        // Safe inside this source's own callback: sd-event defers the free until the dispatch returns.
        sd_event_source_disable_unref(source)
    }

    /// Arms the timer for `deadline`, CLOCK_MONOTONIC seconds as ``EventLoop/now``, and enables it.
    ///
    /// A past deadline fires at the next iteration. A repeating timer continues from the new deadline at its
    /// interval. Does nothing once the loop has finished.
    public func schedule(at deadline: Double) {
        schedule(atMicroseconds: MonotonicClock.microseconds(fromSeconds: deadline))
    }

    /// Arms the timer for `seconds` after the loop's current time (``EventLoop/now``), and enables it.
    public func schedule(after seconds: Double) {
        let now = MonotonicClock.now(of: sd_event_source_get_event(source))
        let (deadline, overflow) = now.addingReportingOverflow(MonotonicClock.microseconds(fromSeconds: seconds))
        schedule(atMicroseconds: overflow ? .max : deadline)
    }

    /// Whether the timer can fire (`sd_event_source_set_enabled`).
    ///
    /// A one-shot timer turns itself off after firing; turning it on again fires it at its last deadline, that is at
    /// the next iteration if that has passed: use ``schedule(at:)`` to set a new one.
    public var isEnabled: Bool {
        get { sd_event_source_get_enabled(source, nil) > 0 }
        set { setEnabled(newValue) }
    }

    /// The deadline after `previous` for a timer of `interval` µs at time `now`: `previous + interval` while that has
    /// not passed; once the loop fell behind further, the first point of the same grid after `now`, so that the
    /// missed firings are dropped rather than delivered back to back.
    static func nextDeadline(after previous: UInt64, interval: UInt64, now: UInt64) -> UInt64 {
        let (next, overflow) = previous.addingReportingOverflow(interval)
        guard !overflow else { return .max }
        guard next < now else { return next }
        let (skip, skipOverflow) = ((now - previous) / interval + 1).multipliedReportingOverflow(by: interval)
        let (skipped, skippedOverflow) = previous.addingReportingOverflow(skip)
        return skipOverflow || skippedOverflow ? .max : skipped
    }

    /// Sets the deadline (`sd_event_source_set_time`) and enables the timer.
    private func schedule(atMicroseconds deadline: UInt64) {
        EventLoopError.require(sd_event_source_set_time(source, deadline), "sd_event_source_set_time")
        setEnabled(true)
    }

    /// Turns the timer on in its kind's mode (`SD_EVENT_ONESHOT` or `SD_EVENT_ON`), or off.
    private func setEnabled(_ enabled: Bool) {
        let mode: Int32
        switch (enabled, kind) {
        case (false, _): mode = Int32(SD_EVENT_OFF)
        case (true, .oneShot): mode = Int32(SD_EVENT_ONESHOT)
        case (true, .repeating): mode = Int32(SD_EVENT_ON)
        }
        EventLoopError.require(sd_event_source_set_enabled(source, mode), "sd_event_source_set_enabled")
    }

    /// The C callback's whole work: find the Swift source, re-arm it if it repeats, call its handler.
    ///
    /// Re-arming comes first so that the handler has the last word (it may disable, reschedule or release the
    /// source), and so that nothing touches the source after the handler returns.
    private static func dispatch(_ userdata: UnsafeMutableRawPointer?, deadline: UInt64) {
        guard let userdata else { return }
        let timer = Unmanaged<TimerSource>.fromOpaque(userdata).takeUnretainedValue()
        if case .repeating(let interval) = timer.kind {
            let now = MonotonicClock.now(of: sd_event_source_get_event(timer.source))
            let next = nextDeadline(after: deadline, interval: interval, now: now)
            EventLoopError.require(sd_event_source_set_time(timer.source, next), "sd_event_source_set_time")
        }
        timer.handler()
    }
}
