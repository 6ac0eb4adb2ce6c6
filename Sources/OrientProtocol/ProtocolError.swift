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

/// An error reply of PROTOCOL.md: a code from its fixed list and a message for people.
public struct ProtocolError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The error codes of PROTOCOL.md.
    public enum Code: String, Sendable, Hashable, Codable, CaseIterable {
        /// Not JSON, or not an object.
        case parseError = "parse-error"
        /// No or unknown `method`, `id` neither an integer nor a string, wrong `params`.
        case invalidRequest = "invalid-request"
        /// An unknown orientation or mask name; `lock {}` while the interface orientation is unknown.
        case invalidOrientation = "invalid-orientation"
        /// The change would allow no orientation.
        case emptyMask = "empty-mask"
        /// `end` with a count of 0.
        case notGenerating = "not-generating"
        /// `lock`, `unlock` or `constrain` from a client that is not a controller.
        case permissionDenied = "permission-denied"
        /// More than 4096 bytes before the newline; the connection is closed.
        case lineTooLong = "line-too-long"
        /// Sent before closing a connection over `MaxClients=`.
        case tooManyClients = "too-many-clients"
        /// The lock could not be written to disk; nothing changed.
        case stateNotSaved = "state-not-saved"
        /// A fault of the daemon.
        case `internal`
    }

    /// The code.
    public var code: Code
    /// What went wrong and, where it helps, what to do.
    public var message: String

    /// An error with its code and message.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}

extension ProtocolError: JSONWritable {
    /// Writes `{"code": …, "message": …}`.
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("code", code.rawValue)
            json.member("message", message)
        }
    }
}
