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

import OrientProtocol
import OrientationCore

/// The requests' side of the engine: a request's change and reply, and the lock.
extension Engine {
    /// Why a lock change did not happen; nothing changed.
    enum LockChangeError: Error {
        /// The policy refuses it.
        case refused(PolicyError)
        /// The new lock could not be saved.
        case notSaved(StateStoreError)
    }

    /// Applies a lock change on a copy, saves it, and only then makes it the policy.
    func changeLock(_ edit: (inout RotationPolicy) throws(PolicyError) -> Void) throws(LockChangeError) {
        var candidate = policy
        do {
            try edit(&candidate)
        } catch {
            throw .refused(error)
        }
        if candidate.lock != policy.lock {
            do {
                try choices.save(lock: candidate.lock)
            } catch {
                throw .notSaved(error)
            }
        }
        asOneSentChange { adopt(candidate) }
    }

    /// Answers one request: `body` makes its change and its reply line (`onError` the reply when it throws, and
    /// nothing it changed is sent); `send` sends the reply, and only then do the change's events go out.
    func answer<Failure: Error>(
        _ body: () throws(Failure) -> [UInt8],
        onError: (Failure) -> [UInt8],
        send: ([UInt8]) -> Void
    ) {
        let reply: [UInt8]
        do {
            reply = try publisher.holding(body)
        } catch {
            reply = onError(error)
        }
        send(reply)
        flush()
    }
}
