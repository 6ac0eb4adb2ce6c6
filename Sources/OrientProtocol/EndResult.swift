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

/// The result of `end`: this connection's count after the call.
public struct EndResult: Sendable, Hashable, Codable {
    public var count: Int

    /// A result from its count.
    public init(count: Int) {
        self.count = count
    }
}

extension EndResult: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in json.member("count", count) }
    }
}
