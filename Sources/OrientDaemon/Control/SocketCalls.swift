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

/// Thin wrappers over the socket calls the server makes, retrying interrupted calls; every result is checked.
enum SocketCalls {
    /// A listening Unix stream socket at `path` (non-blocking, close-on-exec, mode 0666: who may
    /// do what is decided per request from the peer's credentials). A stale socket file left by a
    /// crash is replaced; one another daemon is listening on is an error.
    static func listen(at path: String, backlog: Int32 = 64) throws(SocketError) -> FileDescriptor {
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
        let raw = socket(
            AF_UNIX,
            Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
            0
        )
        guard raw >= 0 else { throw SocketError(operation: "socket", subject: "AF_UNIX", errno: .current) }
        let fd = FileDescriptor(rawValue: raw)
        guard address.withSocketAddress({ bind(raw, $0, $1) }) == 0 else {
            let error = Errno.current
            fd.close()
            throw SocketError(operation: "bind", subject: path, errno: error)
        }
        /// Closes the socket and removes its file after `operation` failed.
        func abandoned(_ operation: String) -> SocketError {
            let error = SocketError(operation: operation, subject: path, errno: .current)
            fd.close()
            unlink(path)
            return error
        }
        // Everyone may connect: a socket file left with the umask's mode would refuse users the daemon serves.
        guard chmod(path, 0o666) == 0 else { throw abandoned("chmod") }
        guard Glibc.listen(raw, backlog) == 0 else { throw abandoned("listen") }
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
    static func acceptConnection(_ listener: FileDescriptor) throws(SocketError) -> FileDescriptor? {
        while true {
            // accept4 is not in Swift's Glibc module: accept, then make it non-blocking and close-on-exec.
            let raw = retryingInterrupts { Glibc.accept(listener.rawValue, nil, nil) }
            if raw >= 0 {
                let fd = FileDescriptor(rawValue: raw)
                do throws(SocketError) {
                    try setNonBlocking(fd, subject: "an accepted connection")
                    try check(fcntl(raw, F_SETFD, FD_CLOEXEC), "fcntl(F_SETFD)", "an accepted connection")
                } catch {
                    fd.close()
                    throw error
                }
                return fd
            }
            switch errno {
            case ECONNABORTED: continue
            case EAGAIN: return nil
            default: throw SocketError(operation: "accept", subject: "fd \(listener.rawValue)", errno: .current)
            }
        }
    }

    /// Makes `fd` non-blocking, keeping its other status flags.
    /// - Throws: ``SocketError`` naming the fcntl(2) call that failed and `subject`.
    static func setNonBlocking(_ fd: FileDescriptor, subject: String) throws(SocketError) {
        let flags = fcntl(fd.rawValue, F_GETFL)
        try check(flags, "fcntl(F_GETFL)", subject)
        try check(fcntl(fd.rawValue, F_SETFL, flags | O_NONBLOCK), "fcntl(F_SETFL)", subject)
    }

    /// A C call's result: -1 is an error with the call's name, `subject` and errno.
    private static func check(_ result: Int32, _ operation: String, _ subject: String) throws(SocketError) {
        guard result == -1 else { return }
        throw SocketError(operation: operation, subject: subject, errno: .current)
    }
}

/// A failed socket call: the call, the path or fd it was about, and errno.
struct SocketError: Error, CustomStringConvertible {
    var operation: String
    var subject: String
    var errno: Errno

    var description: String {
        "\(operation)(\(subject)): \(errno)"
    }
}
