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

import EventLoop
import OrientationCore
import SystemSupport
import Testing

@testable import OrientDaemon

#if canImport(Glibc)
import Glibc
#endif

/// A real ``ClientConnection`` on a real event loop, its peer the other end of a socket pair.
@Suite struct ClientConnectionTests {
    /// Reliability, "A client that read a little too slowly cost megabytes" (docs/reliability.md): a peer that reads
    /// nine tenths of what it is sent never catches up, so the queue is never emptied; its written part must still be
    /// removed, so that it holds at most about twice the unsent bytes plus 64 KiB, and every byte reaches the peer
    /// once, in order.
    @Test func theQueueOfAPeerThatNeverCatchesUpHoldsAboutTwiceItsUnsentBytes() throws {
        let loop = try EventLoop()
        let pair = try SocketPair()
        defer { pair.peer.close() }
        let owner = ConnectionOwner()
        let connection = try ClientConnection(
            id: ClientID(1),
            fd: pair.connection,
            loop: loop,
            outputLimit: 256 * 1024,
            delegate: owner
        )
        defer { connection.shutDown() }

        var sent: [UInt8] = []
        var received: [UInt8] = []
        var worst = (held: 0, pending: 0)
        var largestPending = 0
        // 120 rounds of 16,400 bytes (1.9 MiB) in lines of 200 bytes, the peer taking nine tenths of all sent after
        // each: the unsent bytes grow to about 190 KiB, within the 256 KiB bound.
        for round in 0..<120 {
            for index in 0..<82 {
                let text = "round \(round) line \(index) "
                let line = Array((text + String(repeating: "x", count: 199 - text.utf8.count) + "\n").utf8)
                sent += line
                connection.send(line)
            }
            try pair.read(into: &received, until: sent.count * 9 / 10, from: connection, pumping: loop)
            try #require(!connection.isClosed, "closed after \(sent.count) bytes: \(owner.reasons)")
            let (held, pending) = (connection.queuedByteCount, connection.pendingOutput)
            largestPending = max(largestPending, pending)
            if held - 2 * pending > worst.held - 2 * worst.pending { worst = (held, pending) }
        }
        #expect(
            worst.held <= 2 * worst.pending + 64 * 1024,
            "the queue held \(worst.held) bytes for \(worst.pending) unsent of \(sent.count) sent"
        )
        // The peer lagged for real: the unsent bytes went far past what the bound leaves for written ones.
        #expect(largestPending > 128 * 1024, "at most \(largestPending) bytes unsent")

        try pair.read(into: &received, until: sent.count, from: connection, pumping: loop)
        #expect(connection.pendingOutput == 0)
        #expect(received.count == sent.count)
        #expect(received == sent, "the bytes the peer read differ from those sent")
        #expect(owner.reasons.isEmpty)
    }
}

/// The delegate a ``ControlServer`` would be: it records why the connection closed.
private final class ConnectionOwner: ClientConnectionDelegate {
    var reasons: [String] = []

    func connection(_ connection: ClientConnection, received line: [UInt8]) {}

    func connectionClosed(_ connection: ClientConnection, reason: String) {
        reasons.append(reason)
    }

    func connectionStaysAfterReadClose(_ connection: ClientConnection) -> Bool { true }
}

/// A non-blocking Unix stream socket pair: the connection's end (its send buffer small, so that the queue, not the
/// kernel, holds what the peer has not read) and the peer's, which the test closes.
private struct SocketPair {
    let connection: FileDescriptor
    let peer: FileDescriptor

    init() throws {
        var fds: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds) == 0)
        connection = FileDescriptor(rawValue: fds[0])
        peer = FileDescriptor(rawValue: fds[1])
        var size: Int32 = 16 * 1024
        try #require(setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size)) == 0)
    }

    /// Reads from the peer's end until `received` holds `count` bytes, never more; when the socket is empty, runs
    /// the loop until `connection` writes more.
    func read(
        into received: inout [UInt8],
        until count: Int,
        from connection: ClientConnection,
        pumping loop: EventLoop
    ) throws {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while received.count < count {
            let wanted = min(buffer.count, count - received.count)
            let result = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(Errno) in
                    try peer.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[0..<wanted]))
                }
            }
            do {
                let read = try result.get()
                try #require(read > 0, "the connection's end closed with \(count - received.count) bytes to come")
                received += buffer[0..<read]
            } catch let error as Errno where error == .wouldBlock {
                // The connection has unsent bytes and writable interest: the loop's next event writes some.
                try #require(!connection.isClosed, "closed with \(count - received.count) bytes owed")
                try #require(connection.pendingOutput > 0, "\(count - received.count) bytes owed, none queued")
                try loop.runOnce(timeout: 30)
            }
        }
    }
}
