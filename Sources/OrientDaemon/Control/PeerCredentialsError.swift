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

public import SystemSupport

/// The credentials of a socket's peer could not be read (`getsockopt(SO_PEERCRED)` failed).
public struct PeerCredentialsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The socket asked about.
    public let socket: Int32
    /// The error `getsockopt` reported.
    public let errno: Errno

    init(socket: Int32, errno: Errno) {
        self.socket = socket
        self.errno = errno
    }

    /// The failure as one line, such as `getsockopt(fd 7, SO_PEERCRED): Socket operation on non-socket`.
    public var description: String {
        "getsockopt(fd \(socket), SO_PEERCRED): \(errno)"
    }
}
