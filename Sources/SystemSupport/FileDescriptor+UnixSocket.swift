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

#if canImport(Glibc)
import Glibc
#endif

extension FileDescriptor {
    /// A stream socket connected to the Unix socket at `path`, close-on-exec; the caller's to close.
    ///
    /// connect(2) is made on a blocking socket (a non-blocking one may answer `EAGAIN` while the listener's backlog
    /// is full); `nonBlocking` sets `O_NONBLOCK` once it is connected, for a reader that reads until `EAGAIN`.
    /// - Throws: the errno of socket(2) or connect(2); `ENAMETOOLONG` for a path that does not fit `sun_path`.
    public static func connect(toUnixSocketAt path: String, nonBlocking: Bool = false) throws(Errno) -> FileDescriptor {
        let address = try UnixSocketAddress(path: path)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw Errno.current }
        guard address.withSocketAddress({ Glibc.connect(descriptor, $0, $1) }) == 0 else {
            let error = Errno.current
            Glibc.close(descriptor)
            throw error
        }
        if nonBlocking {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        }
        return FileDescriptor(rawValue: descriptor)
    }
}
