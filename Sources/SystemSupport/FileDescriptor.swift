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

/// An open file descriptor that the caller owns: the one way the package writes to one.
///
/// Writing retries `EINTR` and resumes after short writes; sockets are written with send(2) and
/// `MSG_NOSIGNAL`, so that a peer that left is an `EPIPE` error, never a `SIGPIPE` that kills the process.
public struct FileDescriptor: RawRepresentable, Sendable, Hashable {
    /// The descriptor number.
    public let rawValue: Int32

    /// The descriptor `rawValue`; it is not closed by this value.
    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// Standard output.
    public static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
    /// Standard error.
    public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

    /// How bytes go out.
    public enum WriteCall: Sendable {
        /// write(2): files, pipes, terminals.
        case write
        /// send(2) with `MSG_NOSIGNAL`: connected sockets.
        case send
    }

    /// One write of as much of `bytes` as the descriptor takes now, retried on `EINTR`: the count written.
    /// - Throws: the errno of the call; ``Errno/wouldBlock`` when a non-blocking descriptor is full.
    public func write(_ bytes: UnsafeRawBufferPointer, using call: WriteCall = .write) throws(Errno) -> Int {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        let written = retryingInterrupts {
            switch call {
            case .write: Glibc.write(rawValue, base, bytes.count)
            case .send: Glibc.send(rawValue, base, bytes.count, Int32(MSG_NOSIGNAL))
            }
        }
        guard written >= 0 else { throw Errno.current }
        return written
    }

    /// Writes every byte, resuming after short writes and `EINTR`; a non-blocking descriptor that is full is
    /// waited for with poll(2).
    /// - Throws: the errno of the first call that failed (`EIO` for a write that takes nothing); how much was
    ///   written before is then unknown to the caller.
    public func writeAll(_ bytes: UnsafeRawBufferPointer, using call: WriteCall = .write) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let written: Int
            do {
                written = try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]), using: call)
            } catch  where error == .wouldBlock {
                var entry = pollfd(fd: rawValue, events: Int16(POLLOUT), revents: 0)
                _ = retryingInterrupts { poll(&entry, 1, -1) }
                continue
            }
            // Nothing taken from a non-empty write: report it rather than spin.
            guard written > 0 else { throw Errno.ioError }
            offset += written
        }
    }

    /// One write of as much of `bytes[offset...]` as the descriptor takes now; see ``write(_:using:)``.
    public func write(_ bytes: [UInt8], from offset: Int = 0, using call: WriteCall = .write) throws(Errno) -> Int {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) in try write(UnsafeRawBufferPointer(rebasing: raw[offset...]), using: call) }
        }
        return try result.get()
    }

    /// Writes every byte of `bytes`; see ``writeAll(_:using:)``.
    public func writeAll(_ bytes: [UInt8], using call: WriteCall = .write) throws(Errno) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(Errno) in try writeAll(raw, using: call) }
        }
        try result.get()
    }

    /// Writes all of `text` in UTF-8.
    public func writeAll(_ text: String, using call: WriteCall = .write) throws(Errno) {
        try writeAll(Array(text.utf8), using: call)
    }
}
