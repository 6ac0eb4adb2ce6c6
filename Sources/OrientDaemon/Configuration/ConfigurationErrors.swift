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

/// Every mistake found in the configuration files, in the order they were read.
public struct ConfigurationErrors: Error, Sendable, Hashable, CustomStringConvertible {
    /// The mistakes; never empty.
    public var errors: [ConfigurationError]

    /// The mistakes found.
    public init(_ errors: [ConfigurationError]) {
        self.errors = errors
    }

    /// One line per mistake.
    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}
