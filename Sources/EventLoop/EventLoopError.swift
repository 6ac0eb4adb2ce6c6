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
public import SystemSupport

/// A failed sd-event call: the C function, what it was about, and the errno it reported.
public struct EventLoopError: Error, Sendable, CustomStringConvertible {
    /// The C function that failed, such as `sd_event_add_io`.
    public let operation: String
    /// What the call was about, such as `fd 7`; empty when the operation says it all.
    public let subject: String
    /// The errno value that the call returned (sd-event returns `-errno`).
    public let errno: Errno
    /// A hint about the likely cause, for errors whose errno alone misleads.
    private let hint: String?

    init(operation: String, subject: String, errno: Errno, hint: String? = nil) {
        self.operation = operation
        self.subject = subject
        self.errno = errno
        self.hint = hint
    }

    /// The failure as one line, such as `sd_event_add_io(fd 7): Bad file descriptor`.
    public var description: String {
        let call = subject.isEmpty ? operation : "\(operation)(\(subject))"
        let message = "\(call): \(errno)"
        guard let hint else { return message }
        return "\(message) (\(hint))"
    }
}

extension EventLoopError {
    /// Returns `result` when it is not negative, or throws the error it encodes: sd-event returns `-errno`.
    ///
    /// The subject is an autoclosure so that a successful call formats nothing.
    @discardableResult
    static func check(
        _ result: Int32,
        _ operation: String,
        _ subject: @autoclosure () -> String = "",
        hint: (Errno) -> String? = { _ in nil }
    ) throws(EventLoopError) -> Int32 {
        guard result < 0 else { return result }
        let errno = Errno(result)
        throw EventLoopError(operation: operation, subject: subject(), errno: errno, hint: hint(errno))
    }

    /// Stops the process when a call that cannot fail in a correct program fails; a finished loop is not a failure.
    ///
    /// Property setters cannot throw. The calls behind them fail only when the program broke a rule (an fd closed
    /// before its source was released, a fork) or memory ran out; after the loop has finished (`ESTALE`) there is
    /// nothing left to dispatch, so the change is moot and ignored.
    static func require(_ result: Int32, _ operation: String) {
        guard result < 0, result != -ESTALE else { return }
        preconditionFailure(EventLoopError(operation: operation, subject: "", errno: Errno(result)).description)
    }
}
