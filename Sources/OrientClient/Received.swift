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

/// A value read from the daemon together with the line it came in, for tools that pass the daemon's
/// JSON on unchanged (`orientctl --json`).
public struct Received<Value: Sendable>: Sendable {
    /// The decoded value: a reply's result, or an event.
    public var value: Value
    /// The line as the daemon sent it, without its newline.
    public var line: [UInt8]

    /// A received value from its parts.
    public init(value: Value, line: [UInt8]) {
        self.value = value
        self.line = line
    }

    /// The JSON text of a member of the line, following `keys` through nested objects
    /// (`json(at: "result", "state")`), byte for byte as the daemon wrote it; nil when a key is missing.
    public func json(at keys: String...) -> ArraySlice<UInt8>? {
        var text = line[...]
        for key in keys {
            guard let member = JSONScanner.member(key, of: text) else { return nil }
            text = member
        }
        return text
    }
}
