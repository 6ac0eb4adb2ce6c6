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
import Glibc

/// The daemon's one event loop: an owned sd-event loop that dispatches IO, timer and signal sources on one thread.
///
/// Sources are owned by the objects that handle them (see ``IOSource``, ``TimerSource``, ``SignalSource``); the loop
/// keeps no Swift reference to them. Use a loop only from the thread that created it.
public final class EventLoop {
    /// The `sd_event*` this object owns; sources hold their own C references to it.
    let event: OpaquePointer

    /// Creates a new private loop (`sd_event_new`, never the thread's default loop).
    /// - Throws: ``EventLoopError`` naming `sd_event_new`, typically when file descriptors ran out.
    public init() throws(EventLoopError) {
        var event: OpaquePointer?
        try EventLoopError.check(sd_event_new(&event), "sd_event_new")
        self.event = event!
    }

    deinit {
        sd_event_unref(event)
    }

    /// Dispatches events until ``exit(code:)`` is called, then returns the code given to it.
    ///
    /// This is `sd_event_loop` written out with `sd_event_run`, because `sd_event_loop` returns the exit code and
    /// `-errno` in one `Int32`, so a negative exit code would be indistinguishable from a failure.
    /// - Returns: The code passed to ``exit(code:)``.
    /// - Throws: ``EventLoopError`` when an iteration fails, for example when called from inside a handler.
    public func run() throws(EventLoopError) -> Int32 {
        while try runOnce(timeout: nil) {}
        var code: Int32 = 0
        try EventLoopError.check(sd_event_get_exit_code(event, &code), "sd_event_get_exit_code")
        return code
    }

    /// Runs one iteration (`sd_event_run`): waits up to `timeout` seconds for an event and dispatches what is ready.
    ///
    /// For tests and for commands that pump the loop themselves.
    /// - Parameter timeout: The longest wait in seconds; `nil` waits until something happens, `0` only polls.
    /// - Returns: `false` when the loop has finished (after ``exit(code:)``), `true` while it can still dispatch.
    /// - Throws: ``EventLoopError`` naming `sd_event_run`, for example when called from inside a handler.
    @discardableResult
    public func runOnce(timeout: Double?) throws(EventLoopError) -> Bool {
        guard !isFinished else { return false }
        let microseconds = timeout.map { MonotonicClock.microseconds(fromSeconds: $0) } ?? .max
        try EventLoopError.check(sd_event_run(event, microseconds), "sd_event_run")
        return !isFinished
    }

    /// Asks the loop to finish (`sd_event_exit`): the current iteration completes, no further events are dispatched.
    ///
    /// Has no effect once the loop has finished; a second call before that replaces the code.
    /// - Parameter code: What ``run()`` returns.
    public func exit(code: Int32) {
        _ = sd_event_exit(event, code)
    }

    /// CLOCK_MONOTONIC seconds at the start of the current iteration (`sd_event_now`): cached, no syscall.
    ///
    /// Before the first iteration this reads the clock. Handlers that compute deadlines should use this value,
    /// so that all sources of one iteration agree on the time.
    public var now: Double {
        MonotonicClock.seconds(fromMicroseconds: MonotonicClock.now(of: event))
    }

    /// CLOCK_BOOTTIME seconds at the start of the current iteration: like ``now``, but it also counts the time the
    /// system was suspended, so that `bootTime - now` grows by the length of every suspend.
    public var bootTime: Double {
        var microseconds: UInt64 = 0
        if sd_event_now(event, CLOCK_BOOTTIME, &microseconds) >= 0 {
            return MonotonicClock.seconds(fromMicroseconds: microseconds)
        }
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1_000_000_000
    }

    /// Turns automatic systemd watchdog pings on or off (`sd_event_set_watchdog`).
    ///
    /// When on, the loop wakes at half of `WATCHDOG_USEC` and sends `WATCHDOG=1`; when the service manager asked
    /// for no watchdog (`WATCHDOG_USEC` unset, or meant for another process) this does nothing.
    /// - Returns: Whether pings are now being sent.
    /// - Throws: ``EventLoopError`` naming `sd_event_set_watchdog`.
    @discardableResult
    public func setWatchdog(_ enabled: Bool) throws(EventLoopError) -> Bool {
        try EventLoopError.check(sd_event_set_watchdog(event, enabled ? 1 : 0), "sd_event_set_watchdog") > 0
    }

    /// Runs `body` with the loop's `sd_event*`, for a libsystemd object that attaches itself to the loop (such as
    /// `sd_bus_attach_event`) and takes its own reference.
    ///
    /// The pointer is valid only inside `body`; the caller must detach from the loop before it is released.
    public func withUnsafeEventPointer<Result, Failure: Error>(
        _ body: (OpaquePointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try body(event)
    }

    /// Whether the loop has finished: exit was requested and the last iteration ran (`sd_event_get_state`).
    private var isFinished: Bool {
        sd_event_get_state(event) == Int32(SD_EVENT_FINISHED)
    }
}
