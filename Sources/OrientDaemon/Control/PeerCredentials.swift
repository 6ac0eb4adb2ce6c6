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

#if canImport(Glibc)
import Glibc
#endif

/// The process, user and group at the other end of a Unix socket, as the kernel recorded them when it connected.
public struct PeerCredentials: Sendable, Hashable, CustomStringConvertible {
    /// The peer's process ID at connect time.
    public var processID: Int32
    /// The peer's effective user ID.
    public var userID: UInt32
    /// The peer's effective group ID.
    public var groupID: UInt32

    /// Credentials given directly, for tests and for callers that got them elsewhere.
    public init(processID: Int32, userID: UInt32, groupID: UInt32) {
        self.processID = processID
        self.userID = userID
        self.groupID = groupID
    }

    /// The credentials of the peer of a connected Unix socket (`getsockopt` with `SO_PEERCRED`).
    ///
    /// - Throws: ``PeerCredentialsError`` with the errno, such as `ENOTSOCK` or `EBADF`.
    public static func of(socket descriptor: FileDescriptor) throws(PeerCredentialsError) -> PeerCredentials {
        // `struct ucred` needs _GNU_SOURCE, which the Glibc module lacks; its layout is fixed by the Linux ABI
        // on every architecture: pid_t, uid_t, gid_t, each 32 bits.
        let fd = descriptor.rawValue
        let size = 3 * MemoryLayout<Int32>.size
        // Through a Result: Swift 6.0 takes what a standard-library closure throws as `any Error`.
        return try withUnsafeTemporaryAllocation(byteCount: size, alignment: MemoryLayout<Int32>.alignment) { buffer in
            Result { () throws(PeerCredentialsError) -> PeerCredentials in
                var length = socklen_t(size)
                guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, buffer.baseAddress, &length) == 0 else {
                    throw PeerCredentialsError(socket: fd, errno: .current)
                }
                guard length == size else { throw PeerCredentialsError(socket: fd, errno: .invalidArgument) }
                return PeerCredentials(
                    processID: buffer.load(fromByteOffset: 0, as: Int32.self),
                    userID: buffer.load(fromByteOffset: 4, as: UInt32.self),
                    groupID: buffer.load(fromByteOffset: 8, as: UInt32.self)
                )
            }
        }
        .get()
    }

    /// The credentials for the log, such as `pid 4242 uid 1000 gid 1000`.
    public var description: String {
        "pid \(processID) uid \(userID) gid \(groupID)"
    }
}

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
