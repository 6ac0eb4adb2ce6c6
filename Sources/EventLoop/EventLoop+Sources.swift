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

extension EventLoop {
    /// Watches a file descriptor (`sd_event_add_io`); the handler runs while any of `events` holds (level-triggered).
    ///
    /// The source is enabled at once. The loop does not take the fd: its owner closes it, after releasing the source.
    /// Use non-blocking fds, so that a handler never stalls the loop.
    /// - Parameters:
    ///   - fd: The file descriptor to watch.
    ///   - events: What to wait for; ``IOEvents/error`` and ``IOEvents/hangUp`` are reported even when not asked for.
    ///   - handler: Runs with the events seen; it must consume them (read, write) or it runs again next iteration.
    /// - Returns: The source; the callbacks stop when it is released.
    /// - Throws: ``EventLoopError`` naming `sd_event_add_io`, for example `EBADF` for a closed fd, `EPERM` for a
    ///   regular file.
    public func addIO(
        fd: Int32,
        events: IOEvents,
        handler: @escaping (IOEvents) -> Void
    ) throws(EventLoopError) -> IOSource {
        try IOSource(event: event, fd: fd, events: events, handler: handler)
    }

    /// Adds a one-shot timer on CLOCK_MONOTONIC (`sd_event_add_time`); rearm it with ``TimerSource/schedule(at:)``.
    /// - Parameters:
    ///   - deadline: When to fire, in CLOCK_MONOTONIC seconds, as ``now``; a past deadline fires at the next iteration.
    ///   - accuracy: How late the timer may fire, in seconds, so that the kernel can coalesce wake-ups.
    ///   - handler: Runs once per scheduling.
    /// - Returns: The source; the timer is cancelled when it is released.
    /// - Throws: ``EventLoopError`` naming `sd_event_add_time`.
    public func addTimer(
        at deadline: Double,
        accuracy: Double = 0.001,
        handler: @escaping () -> Void
    ) throws(EventLoopError) -> TimerSource {
        try TimerSource(
            event: event,
            deadline: MonotonicClock.microseconds(fromSeconds: deadline),
            accuracy: Self.accuracy(accuracy),
            kind: .oneShot,
            handler: handler
        )
    }

    /// Runs `action` once at the loop's next turn, after the callback being handled now has returned: for work that
    /// must not run inside the callback that asks for it (a capture replaced, or failed, from inside its own
    /// delivery of a sample). Every such action of the daemon goes through here.
    /// - Returns: The source; the action is cancelled when it is released before it runs.
    /// - Throws: ``EventLoopError`` naming `sd_event_add_time`.
    public func addNextTurnAction(_ action: @escaping () -> Void) throws(EventLoopError) -> TimerSource {
        try addTimer(at: now, handler: action)
    }

    /// Adds a timer that fires every `interval` seconds, first at ``now`` + `interval` (`sd_event_add_time`).
    ///
    /// Each deadline is the previous one plus `interval`, so lateness does not accumulate; when the loop fell behind
    /// by a whole interval or more, the missed firings are skipped rather than delivered in a burst.
    /// - Parameters:
    ///   - interval: Seconds between firings; must be positive and finite.
    ///   - accuracy: How late each firing may be, in seconds.
    ///   - handler: Runs at each firing.
    /// - Returns: The source; the timer is cancelled when it is released.
    /// - Throws: ``EventLoopError`` naming `sd_event_add_time`.
    public func addRepeatingTimer(
        interval: Double,
        accuracy: Double = 0.001,
        handler: @escaping () -> Void
    ) throws(EventLoopError) -> TimerSource {
        precondition(interval > 0 && interval.isFinite, "a repeating timer needs a positive, finite interval")
        let microseconds = max(1, MonotonicClock.microseconds(fromSeconds: interval))
        let (first, overflow) = MonotonicClock.now(of: event).addingReportingOverflow(microseconds)
        return try TimerSource(
            event: event,
            deadline: overflow ? .max : first,
            accuracy: Self.accuracy(accuracy),
            kind: .repeating(interval: microseconds),
            handler: handler
        )
    }

    /// Delivers a signal through the loop (`sd_event_add_signal`, a signalfd) instead of an asynchronous handler.
    ///
    /// The signal must already be blocked with `pthread_sigmask` in this thread (and in every other thread, before
    /// they start), or the kernel delivers it the ordinary way; a loop takes one source per signal.
    /// - Parameters:
    ///   - signal: The signal number, such as `SIGTERM`.
    ///   - handler: Runs once per delivery (signals of one kind that arrive together merge into one).
    /// - Returns: The source; the loop stops reading the signal when it is released (the signal stays blocked).
    /// - Throws: ``EventLoopError`` naming `sd_event_add_signal`: `EBUSY` when the signal is not blocked or already
    ///   has a source in this loop, `EINVAL` for an invalid signal number.
    public func addSignal(_ signal: Int32, handler: @escaping () -> Void) throws(EventLoopError) -> SignalSource {
        try SignalSource(event: event, signal: signal, handler: handler)
    }

    /// Seconds of accuracy as sd-event microseconds: at least 1 µs, since 0 asks sd-event for its 250 ms default,
    /// and below `UInt64.max`, which sd-event rejects.
    private static func accuracy(_ seconds: Double) -> UInt64 {
        min(UInt64.max - 1, max(1, MonotonicClock.microseconds(fromSeconds: seconds)))
    }
}
