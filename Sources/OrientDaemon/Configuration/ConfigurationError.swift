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

/// A configuration file that cannot be used: what is wrong, where, and what is allowed (CONFIG.md).
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of mistake it is.
    public enum Reason: Sendable, Hashable {
        /// The file exists but cannot be read (the message says why).
        case unreadable(String)
        /// A line that is neither a `[Section]`, a `Key=Value`, a comment nor empty.
        case malformedLine
        /// A `Key=Value` before any `[Section]`.
        case keyOutsideSection
        /// A section CONFIG.md does not have.
        case unknownSection
        /// A key its section does not have.
        case unknownKey
        /// A key set a second time in the same file; the first one's line.
        case duplicateKey(firstLine: Int)
        /// A value the key does not allow; what is wrong with it.
        case badValue(String)
    }

    /// The file.
    public var file: String
    /// The line, counted from 1; nil for a problem with the whole file.
    public var line: Int?
    /// The section the line is in (or names).
    public var section: String?
    /// The key, when the line has one.
    public var key: String?
    /// The value (or the whole line when it is malformed).
    public var value: String?
    /// What kind of mistake.
    public var reason: Reason
    /// What would be allowed instead.
    public var allowed: String?

    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        switch reason {
        case .unreadable(let why):
            return text + "cannot be read: \(why)"
        case .malformedLine:
            text += "'\(value ?? "")' is neither a [Section], a Key=Value line nor a comment"
        case .keyOutsideSection:
            text += "\(key ?? "")=\(value ?? ""): a key before any [Section]"
        case .unknownSection:
            text += "[\(section ?? "")]: unknown section"
        case .unknownKey:
            text += "[\(section ?? "")] \(key ?? "")=\(value ?? ""): unknown key"
        case .duplicateKey(let firstLine):
            text += "[\(section ?? "")] \(key ?? "")=\(value ?? ""): set twice in one file (first on line \(firstLine))"
        case .badValue(let why):
            text += "[\(section ?? "")] \(key ?? "")=\(value ?? ""): \(why)"
        }
        if let allowed { text += "; allowed: \(allowed)" }
        return text
    }
}

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
