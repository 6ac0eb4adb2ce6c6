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

import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Thin wrappers over the socket calls the server makes, retrying interrupted calls.
enum SocketCalls {
    /// A listening Unix stream socket at `path` (non-blocking, close-on-exec, mode 0666: who may
    /// do what is decided per request from the peer's credentials). A stale socket file left by a
    /// crash is replaced; one another daemon is listening on is an error.
    static func listen(at path: String, backlog: Int32 = 64) throws(SocketError) -> Int32 {
        let address: UnixSocketAddress
        do throws(Errno) {
            address = try UnixSocketAddress(path: path)
        } catch {
            throw SocketError(operation: "bind", subject: path, errno: error)
        }
        if isListening(at: path) {
            throw SocketError(
                operation: "bind",
                subject: path + " (another orientd is listening there)",
                errno: Errno(EADDRINUSE)
            )
        }
        unlink(path)
        let fd = socket(
            AF_UNIX,
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
            0
        )
        guard fd >= 0 else { throw SocketError(operation: "socket", subject: "AF_UNIX", errno: .current) }
        guard address.withSocketAddress({ bind(fd, $0, $1) }) == 0 else {
            let error = Errno.current
            close(fd)
            throw SocketError(operation: "bind", subject: path, errno: error)
        }
        chmod(path, 0o666)
        guard Glibc.listen(fd, backlog) == 0 else {
            let error = Errno.current
            close(fd)
            unlink(path)
            throw SocketError(operation: "listen", subject: path, errno: error)
        }
        return fd
    }

    /// Whether a daemon answers at `path`.
    static func isListening(at path: String) -> Bool {
        guard let address = try? UnixSocketAddress(path: path) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return address.withSocketAddress { connect(fd, $0, $1) } == 0
    }

    /// Accepts one connection, non-blocking and close-on-exec; nil when none is waiting.
    static func acceptConnection(_ listener: Int32) throws(SocketError) -> Int32? {
        while true {
            // accept4 is not in Swift's Glibc module: accept, then make it non-blocking and close-on-exec.
            let fd = retryingInterrupts { Glibc.accept(listener, nil, nil) }
            if fd >= 0 {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                return fd
            }
            switch errno {
            case ECONNABORTED: continue
            case EAGAIN: return nil
            default: throw SocketError(operation: "accept", subject: "fd \(listener)", errno: .current)
            }
        }
    }
}
