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

import Glibc
import SystemSupport
import Testing

@Suite struct FileDescriptorTests {
    /// More than a pipe holds at once, into a non-blocking pipe read from another thread: every byte arrives,
    /// in order, however the writes were cut short.
    @Test func writeAllDeliversEveryByteThroughAFullPipe() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let reader = ends[0]
        let received = Thread.collect(from: reader)
        try FileDescriptor(rawValue: ends[1]).writeAll(bytes)
        close(ends[1])
        #expect(received.wait() == bytes)
    }

    /// Both ends of a new pipe are close-on-exec from the start (no program started meanwhile inherits them), and
    /// what goes in at one end comes out at the other.
    @Test func aNewPipeIsCloseOnExecAtBothEnds() throws {
        let pipe = try FileDescriptor.makePipe()
        defer {
            pipe.read.close()
            pipe.write.close()
        }
        #expect(fcntl(pipe.read.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(pipe.write.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        try pipe.write.writeAll("through")
        var bytes = [UInt8](repeating: 0, count: 16)
        let count = try pipe.read.read(into: &bytes)
        #expect(Array(bytes.prefix(count)) == Array("through".utf8))
    }

    @Test func writeAllReportsTheErrorOfTheCall() {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        // A pipe without a reader: EPIPE through send would be ENOTSOCK; write(2) with SIGPIPE ignored is EPIPE.
        signal(SIGPIPE, SIG_IGN)
        #expect(throws: Errno(EPIPE)) { try FileDescriptor(rawValue: ends[1]).writeAll("lost") }
        #expect(throws: Errno(ENOTSOCK)) { try FileDescriptor(rawValue: ends[1]).writeAll("lost", using: .send) }
    }

    /// A file longer than one read's chunk comes back whole; one over the limit is refused with `EFBIG` rather than
    /// read into memory; a missing one is `ENOENT`.
    @Test func contentsOfAFileAreReadToTheEnd() throws {
        let path = try temporaryFile(containing: (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        defer { unlink(path) }
        #expect(try FileDescriptor.contents(ofFile: path) == (0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        #expect(try FileDescriptor.contents(ofFile: path, maximumSize: 40_000).count == 40_000)
        #expect(throws: Errno(EFBIG)) { try FileDescriptor.contents(ofFile: path, maximumSize: 39_999) }
        #expect(throws: Errno.noSuchFileOrDirectory) { try FileDescriptor.contents(ofFile: path + ".missing") }
    }

    /// A descriptor the package opens never leaks into a program it starts; pread leaves the position alone.
    @Test func openIsCloseOnExecAndPreadReadsFromItsOffset() throws {
        let path = try temporaryFile(containing: Array("0123456789".utf8))
        defer { unlink(path) }
        let file = try FileDescriptor.open(path)
        defer { file.close() }
        #expect(fcntl(file.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        var bytes = [UInt8](repeating: 0, count: 4)
        let count = try bytes.withUnsafeMutableBytes { buffer throws in try file.read(into: buffer, atOffset: 6) }
        #expect(count == 4)
        #expect(bytes == Array("6789".utf8))
        #expect(try file.read(into: &bytes) == 4)
        #expect(bytes == Array("0123".utf8))
    }

    @Test func writingNothingWritesNothing() throws {
        #expect(try FileDescriptor(rawValue: -1).write(UnsafeRawBufferPointer(start: nil, count: 0)) == 0)
        try FileDescriptor(rawValue: -1).writeAll([])
    }
}

/// A new file in the temporary folder holding `bytes`; its path.
private func temporaryFile(containing bytes: [UInt8]) throws -> String {
    var template = Array("/tmp/orientd-file-XXXXXX".utf8CString)
    let fd = mkstemp(&template)
    try #require(fd >= 0)
    defer { close(fd) }
    try FileDescriptor(rawValue: fd).writeAll(bytes)
    return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// A thread that reads a descriptor to its end.
private final class Thread: @unchecked Sendable {
    private var thread = pthread_t()
    private let fd: Int32
    private var bytes: [UInt8] = []

    private init(fd: Int32) {
        self.fd = fd
    }

    static func collect(from fd: Int32) -> Thread {
        let reader = Thread(fd: fd)
        let context = Unmanaged.passRetained(reader).toOpaque()
        pthread_create(
            &reader.thread,
            nil,
            { context in
                let reader = Unmanaged<Thread>.fromOpaque(context!).takeRetainedValue()
                var chunk = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = chunk.withUnsafeMutableBytes { read(reader.fd, $0.baseAddress, $0.count) }
                    if count <= 0 { break }
                    reader.bytes += chunk.prefix(count)
                }
                return nil
            },
            context
        )
        return reader
    }

    func wait() -> [UInt8] {
        pthread_join(thread, nil)
        return bytes
    }
}
