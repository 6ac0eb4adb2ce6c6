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
public import Glibc
#endif

/// An open file descriptor that the caller owns: the one way the package opens, reads and writes one.
///
/// Every call is made again when a signal interrupts it (`EINTR`, through ``retryingInterrupts(_:_:)``). Writing
/// resumes after short writes; sockets are written with send(2) and `MSG_NOSIGNAL`, so that a peer that left is an
/// `EPIPE` error, never a `SIGPIPE` that kills the process. The value does not close the descriptor by itself:
/// its owner calls ``close()`` once.
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

    /// Opens `path`, close-on-exec whatever `flags` say (no descriptor leaks into a program the process starts).
    /// - Parameters:
    ///   - flags: open(2)'s flags: `O_RDONLY` by default, `O_WRONLY`, `O_CREAT`…
    ///   - permissions: the mode of a file `O_CREAT` makes.
    /// - Throws: the errno of open(2), such as ``Errno/noSuchFileOrDirectory``.
    public static func open(
        _ path: String,
        _ flags: Int32 = O_RDONLY,
        permissions: mode_t = 0
    ) throws(Errno)
        -> FileDescriptor
    {
        FileDescriptor(rawValue: try valueOrErrno { Glibc.open(path, flags | O_CLOEXEC, permissions) })
    }

    /// Closes the descriptor. Not retried: Linux releases it even when close(2) reports `EINTR`.
    public func close() {
        _ = Glibc.close(rawValue)
    }

    /// One read(2) into `buffer`: the count read, 0 at the end of the file.
    /// - Throws: the errno of the call; ``Errno/wouldBlock`` when a non-blocking descriptor has nothing to read.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        return try valueOrErrno { Glibc.read(rawValue, base, buffer.count) }
    }

    /// One read(2) into `bytes`, from its start: the count read, 0 at the end of the file.
    /// - Throws: the errno of the call; ``Errno/wouldBlock`` when a non-blocking descriptor has nothing to read.
    public func read(into bytes: inout [UInt8]) throws(Errno) -> Int {
        let result = bytes.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try read(into: raw) } }
        return try result.get()
    }

    /// One pread(2) into `buffer` from `offset`, which leaves the file's position alone: the count read, 0 at the
    /// end of the file. At offset 0 it makes a sysfs attribute show its value afresh.
    /// - Throws: the errno of the call.
    public func read(into buffer: UnsafeMutableRawBufferPointer, atOffset offset: Int) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        return try valueOrErrno { pread(rawValue, base, buffer.count, off_t(offset)) }
    }

    /// Reads until the end of the file.
    /// - Parameter maximumSize: the most bytes accepted; a longer file is an error rather than memory spent.
    /// - Throws: the errno of read(2); `EFBIG` when the file holds more than `maximumSize` bytes.
    public func readToEnd(maximumSize: Int = .max) throws(Errno) -> [UInt8] {
        var contents: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = try read(into: &chunk)
            guard count > 0 else { return contents }
            guard count <= maximumSize - contents.count else { throw Errno(EFBIG) }
            contents += chunk.prefix(count)
        }
    }

    /// The whole file at `path`: the one way the package reads a file to its end.
    /// - Parameter maximumSize: the most bytes accepted; a longer file is an error rather than memory spent.
    /// - Throws: the errno of open(2) or read(2), such as ``Errno/noSuchFileOrDirectory``; `EFBIG` when the file
    ///   holds more than `maximumSize` bytes.
    public static func contents(ofFile path: String, maximumSize: Int = .max) throws(Errno) -> [UInt8] {
        let descriptor = try open(path)
        defer { descriptor.close() }
        return try descriptor.readToEnd(maximumSize: maximumSize)
    }

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
        return try valueOrErrno {
            switch call {
            case .write: Glibc.write(rawValue, base, bytes.count)
            case .send: Glibc.send(rawValue, base, bytes.count, Int32(MSG_NOSIGNAL))
            }
        }
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
