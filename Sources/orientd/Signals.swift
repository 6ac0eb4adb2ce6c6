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

#if canImport(Glibc)
import Glibc
#endif

/// The signals the daemon handles on its event loop, blocked first thing in `main` (CLI.md):
/// sd-event's signal sources need them blocked in every thread, so before any thread exists.
enum Signals {
    static let handled: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    /// Blocks SIGTERM, SIGINT and SIGHUP in the calling (main) thread.
    static func blockHandled() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handled { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Unblocks them again for a command that runs no event loop, so that Ctrl-C stops it as usual.
    static func unblockForForegroundCommand() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in handled { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}
