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

/// The result of `begin`: this connection's count after the call and the state.
public struct BeginResult: Sendable, Hashable, Codable {
    public var count: Int
    public var state: OrientationState

    /// A result from its parts.
    public init(count: Int, state: OrientationState) {
        self.count = count
        self.state = state
    }
}

extension BeginResult: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("count", count)
            json.member("state", state)
        }
    }
}
