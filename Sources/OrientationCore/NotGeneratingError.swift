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

/// `end` from a client whose count is already 0.
public struct NotGeneratingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The client that called `end`.
    public var client: ClientID

    public var description: String { "not generating: end without a matching begin" }
}
