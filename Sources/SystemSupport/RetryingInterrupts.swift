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

/// How a C call reports that it failed, for ``retryingInterrupts(_:_:)``.
public enum FailureReporting: Sendable {
    /// -1, with `errno` set: the system calls (open(2), read(2), poll(2), waitpid(2)…).
    case minusOneAndErrno
    /// The error number negated (`-EINTR`): libiio, libevdev, sd-event and sd-bus.
    case negatedErrno
    /// The error number itself, 0 for success: the `…_r` lookups of the name service, pthreads.
    case errorNumber
}

/// Calls `body`, a system call that returns -1 and sets `errno` when it fails, again while it fails with `EINTR` (a
/// signal came before the call could finish), and returns its last result.
@inlinable @inline(__always)
public func retryingInterrupts<Value: FixedWidthInteger & SignedInteger>(_ body: () -> Value) -> Value {
    retryingInterrupts(.minusOneAndErrno, body)
}

/// Calls `body` again while it fails with `EINTR` (a signal came before the call could finish), and returns its
/// last result. The one place of the package where an interrupted call is made again.
///
/// - Parameters:
///   - reporting: how `body`'s call reports a failure.
///   - body: the call; it is made again as it is, so a timeout it passes should be worked out inside it.
@inlinable @inline(__always)
public func retryingInterrupts<Value: FixedWidthInteger & SignedInteger>(
    _ reporting: FailureReporting,
    _ body: () -> Value
) -> Value {
    // Inlinable, so that each caller has it for its own integer type: called as a generic function across modules,
    // each call went through the integer protocols' witnesses (a buffered read did, at every wake-up).
    while true {
        let result = body()
        guard let value = Int64(exactly: result), isInterrupted(value, reporting) else { return result }
    }
}

/// Whether a call's result says it was interrupted (`EINTR`), as `reporting` says it reports a failure.
@usableFromInline
func isInterrupted(_ result: Int64, _ reporting: FailureReporting) -> Bool {
    switch reporting {
    case .minusOneAndErrno: result == -1 && errno == EINTR
    case .negatedErrno: result == -Int64(EINTR)
    case .errorNumber: result == Int64(EINTR)
    }
}

/// The result of `body`, a call that returns -1 and sets `errno` when it fails, made again while it is interrupted
/// (`EINTR`).
/// - Throws: the call's `errno` when it fails otherwise.
@inlinable @inline(__always)
public func valueOrErrno<Value: FixedWidthInteger & SignedInteger>(_ body: () -> Value) throws(Errno) -> Value {
    let result = retryingInterrupts(body)
    guard result != -1 else { throw Errno.current }
    return result
}
