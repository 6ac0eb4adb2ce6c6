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

/// One meaningful line of an INI file in systemd's style (CONFIG.md): a `[Section]`, a `Key=Value`, or a line
/// that is neither. Empty lines and `#` or `;` comments are no lines of this kind: ``IniLexer`` skips them.
public struct IniLine: Sendable, Hashable {
    /// What the line says.
    public enum Kind: Sendable, Hashable {
        /// `[Name]`: the name between the brackets, trimmed.
        case section(String)
        /// `Key=Value`: both trimmed; the value is everything after the first `=` and may be empty.
        case assignment(key: String, value: String)
        /// A line that opens a section without closing it (`[Sensor`).
        case unclosedSection
        /// A line with no `=`, or nothing before it.
        case notAssignment
    }

    /// The line's number, counted from 1.
    public var number: Int
    /// The line without the whitespace around it, as a message quotes it.
    public var text: String
    /// What the line says.
    public var kind: Kind

    /// A line from its parts.
    public init(number: Int, text: String, kind: Kind) {
        self.number = number
        self.text = text
        self.kind = kind
    }
}
