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

import Dispatch
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The user's command of `constrain MASK -- COMMAND`: run with orientctl's standard input, output and error, its
/// exit status passed through, SIGINT and SIGTERM passed on to it.
struct ForegroundCommand {
    /// The program and its arguments; the program is looked up on `PATH`.
    var arguments: [String]

    /// Runs the command to its end, passing each signal of `signals` on to it.
    /// - Returns: the status orientctl should end with: the command's exit status, 128 + N when signal N ended
    ///   it, 127 when it was not found, 126 when it could not be run (as a shell reports them).
    func run(forwarding signals: AsyncStream<Int32>) async -> Int32 {
        let child: pid_t
        switch ProgramSpawn.spawn(arguments, redirections: []) {
        case .success(let pid):
            child = pid
        case .failure(let failure):
            StandardStreams.error("orientctl: cannot run \(arguments[0]): \(Errno(failure.errno))")
            return failure.errno == ENOENT ? 127 : 126
        }
        let forwarding = Task {
            for await signal in signals { kill(child, signal) }
        }
        defer { forwarding.cancel() }
        let status = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var status: Int32 = 0
                _ = retryingInterrupts { waitpid(child, &status, 0) }
                continuation.resume(returning: status)
            }
        }
        // WIFSIGNALED: the low seven bits hold the signal; else the exit status is in the next byte.
        return status & 0x7f != 0 ? 128 + (status & 0x7f) : (status >> 8) & 0xff
    }
}
