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

import Glibc

/// Changes the calling thread's signal mask for the duration of a closure (tests run on shared threads).
enum SignalMask {
    /// Runs `body` with `signal` blocked in this thread; discards the signal if still pending, then restores the mask.
    static func withBlocked<Result>(_ signal: Int32, _ body: () throws -> Result) rethrows -> Result {
        try with(SIG_BLOCK, signal, body)
    }

    /// Runs `body` with `signal` unblocked in this thread, then restores the mask.
    static func withUnblocked<Result>(_ signal: Int32, _ body: () throws -> Result) rethrows -> Result {
        try with(SIG_UNBLOCK, signal, body)
    }

    private static func with<Result>(
        _ how: Int32,
        _ signal: Int32,
        _ body: () throws -> Result
    ) rethrows -> Result {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        var previous = sigset_t()
        pthread_sigmask(how, &set, &previous)
        defer {
            // A signal still pending when the mask is restored would take its default action: end the process.
            var noWait = timespec()
            while sigtimedwait(&set, nil, &noWait) > 0 {}
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        return try body()
    }
}
