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

import OrientClient
import OrientProtocol

extension OrientConnection {
    /// Calls `method` and decodes its result; a failure becomes the one to report.
    func request<Value: Decodable & Sendable>(
        _ method: Request.Method,
        _ parameters: Request.Parameters = .none,
        returning type: Value.Type
    ) async throws(CommandFailure) -> Received<Value> {
        do {
            return try await call(Request(method: method, parameters: parameters), returning: type)
        } catch {
            throw CommandFailure(error)
        }
    }

    /// The failure to report when the events end without an interruption: the daemon went away.
    var lostFailure: CommandFailure {
        CommandFailure(closeReason ?? OrientClientError(.connectionClosed, socketPath: socketPath))
    }
}
