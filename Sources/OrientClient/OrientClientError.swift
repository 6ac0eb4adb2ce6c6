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

public import OrientProtocol
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a call to orientd failed: the daemon could not be reached, the connection closed, or the daemon
/// answered with an error of PROTOCOL.md (``protocolError``).
public struct OrientClientError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure; compare with the static members (`error.code == .cannotConnect`).
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable, Hashable {
            case cannotConnect = "cannot connect"
            case connectionClosed = "connection closed"
            case daemon = "daemon error"
            case invalidReply = "invalid reply"
            case clientClosed = "client closed"
        }

        private let base: Base

        private init(_ base: Base) {
            self.base = base
        }

        /// The socket could not be connected to (``OrientClientError/errno`` says why).
        public static let cannotConnect = Code(.cannotConnect)
        /// The daemon closed the connection, or reading or writing it failed, before the reply came.
        public static let connectionClosed = Code(.connectionClosed)
        /// The daemon answered with an error: see ``OrientClientError/protocolError``.
        public static let daemon = Code(.daemon)
        /// The daemon sent a line that is not a message of PROTOCOL.md, or a reply out of order.
        public static let invalidReply = Code(.invalidReply)
        /// The client was closed by its owner.
        public static let clientClosed = Code(.clientClosed)

        public var description: String { base.rawValue }
    }

    /// The kind of failure.
    public var code: Code
    /// The socket the client talks to.
    public var socketPath: String
    /// The system error, for ``Code/cannotConnect`` and a failed read or write.
    public var errno: Int32?
    /// The daemon's error, for ``Code/daemon``; for ``Code/connectionClosed``, an error the daemon sent
    /// before closing (`too-many-clients`, `line-too-long`), if any.
    public var protocolError: ProtocolError?
    /// More about an invalid reply.
    public var detail: String?

    /// An error from its parts.
    public init(
        _ code: Code,
        socketPath: String,
        errno: Int32? = nil,
        protocolError: ProtocolError? = nil,
        detail: String? = nil
    ) {
        self.code = code
        self.socketPath = socketPath
        self.errno = errno
        self.protocolError = protocolError
        self.detail = detail
    }

    /// Whether the daemon refused for lack of rights (`permission-denied`), or the socket itself could not
    /// be opened for lack of rights (`EACCES`).
    public var isPermissionDenied: Bool {
        protocolError?.code == .permissionDenied || (code == .cannotConnect && (errno == EACCES || errno == EPERM))
    }

    public var description: String {
        var text: String
        switch code {
        case .cannotConnect:
            text = "cannot connect to \(socketPath)"
        case .connectionClosed:
            text = "orientd closed the connection at \(socketPath)"
        case .daemon:
            return protocolError?.description ?? "orientd answered with an error"
        case .invalidReply:
            text = "orientd at \(socketPath) sent a line that is not a message of the protocol"
        default:
            text = "the client was closed"
        }
        if let errno { text += ": \(Errno(errno))" }
        if let protocolError { text += " (\(protocolError))" }
        if let detail { text += ": " + detail }
        return text
    }
}
