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

/// A malformed line in a trace.
public struct TraceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The line's number, counting from 1.
    public var line: Int
    /// What is wrong with it.
    public var message: String

    public var description: String { "line \(line): \(message)" }
}
