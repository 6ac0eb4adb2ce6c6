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

import SystemSupport

/// A failed sd-bus call: the C function, what it was about, and the errno it returned.
struct BusError: Error, Sendable, CustomStringConvertible {
    /// The C function that failed, such as `sd_bus_request_name`.
    let operation: String
    /// What the call was about, such as the name requested; empty when the operation says it all.
    let subject: String
    /// Why (sd-bus returns `-errno`).
    let errno: Errno

    var description: String {
        let call = subject.isEmpty ? operation : "\(operation)(\(subject))"
        return "\(call): \(errno)"
    }

    /// Returns `result` when it is not negative, or throws the error it encodes.
    @discardableResult
    static func check(
        _ result: Int32,
        _ operation: String,
        _ subject: @autoclosure () -> String = ""
    ) throws(BusError) -> Int32 {
        guard result < 0 else { return result }
        throw BusError(operation: operation, subject: subject(), errno: Errno(result))
    }

    /// The object a successful call handed back through its out-parameter (a bus, a slot, a track); a call that
    /// reported success without one is an error (`EINVAL`), not a crash.
    static func returned(_ object: OpaquePointer?, by operation: String) throws(BusError) -> OpaquePointer {
        guard let object else {
            throw BusError(operation: operation, subject: "no object returned", errno: .invalidArgument)
        }
        return object
    }
}
