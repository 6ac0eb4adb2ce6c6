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

import Foundation
import Glibc
import SystemSupport
import Testing

/// A wait on the daemon that did not end as expected: a guard timed out or the connection closed.
package struct DaemonTestError: Error, CustomStringConvertible {
    package var description: String

    package init(description: String) {
        self.description = description
    }
}

/// A client of the control socket written for the tests: a real `AF_UNIX` stream socket, blocking connect, then
/// non-blocking reads with `poll(2)`; every line is parsed with ``DaemonJSON``.
///
/// Messages read but not yet taken wait in ``inbox`` in arrival order; ``log`` keeps every message ever read.
package final class DaemonConnection {
    /// The socket; -1 once closed by ``close()``.
    package private(set) var fd: Int32
    package let socketPath: String
    /// Everything read so far, in order.
    package private(set) var log: [DaemonMessage] = []
    /// Messages read and not yet taken by ``next(timeout:)``, ``call(_:_:timeout:)`` and the like.
    package private(set) var inbox: [DaemonMessage] = []
    /// Whether the daemon closed the connection (EOF, or `ECONNRESET` after the last data).
    package private(set) var closedByDaemon = false
    /// Every byte read from the socket so far, a line not yet complete included.
    package private(set) var receivedByteCount = 0
    /// Text for failure messages (the daemon's output).
    package var context: () -> String = { "" }
    private var buffer: [UInt8] = []
    private var nextID = 1

    /// Connects to `path`.
    /// - Throws: ``DaemonTestError`` with errno's text when the connection cannot be made.
    package init(path: String) throws {
        socketPath = path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DaemonTestError(description: "socket: \(Errno.current)") }
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(path: path)
        } catch {
            Glibc.close(fd)
            throw DaemonTestError(description: "socket path \(path): \(error)")
        }
        guard address.withSocketAddress({ connect(fd, $0, $1) }) == 0 else {
            let error = errno
            Glibc.close(fd)
            throw DaemonTestError(description: "connect \(path): \(Errno(error))")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        self.fd = fd
    }

    deinit { close() }

    /// Closes the socket (the daemon sees EOF).
    package func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Closes the sending side only: the daemon reads EOF, the connection stays open for reading.
    package func closeSendingSide() {
        if fd >= 0 { shutdown(fd, Int32(SHUT_WR)) }
    }

    /// Sends `text` as it is (add the newline yourself); waits for room when the socket is full.
    package func send(_ text: String) throws {
        try send(Array(text.utf8))
    }

    /// Sends bytes as they are.
    package func send(_ bytes: [UInt8]) throws {
        do {
            try FileDescriptor(rawValue: fd).writeAll(bytes, using: .send)
        } catch {
            throw DaemonTestError(description: "send: \(error)")
        }
    }

    /// Sends `{"id": N, "method": method, "params": params}` with a fresh integer id and waits for its reply.
    ///
    /// Events and other replies read on the way stay in ``inbox``; the reply itself is taken out of it.
    /// - Parameter params: the `params` value as JSON text, or nil for none.
    package func call(
        _ method: String,
        _ params: String? = nil,
        timeout: Duration = .seconds(10)
    ) async throws -> DaemonMessage {
        let id = nextID
        nextID += 1
        let paramsText = params.map { ", \"params\": \($0)" } ?? ""
        try send("{\"id\": \(id), \"method\": \"\(method)\"\(paramsText)}\n")
        let deadline = ContinuousClock.now + timeout
        while true {
            if let index = inbox.firstIndex(where: { $0.isReply && $0.id == .integer(Int64(id)) }) {
                return inbox.remove(at: index)
            }
            try await fill(until: deadline, waitingFor: "the reply to \(method) (id \(id))")
        }
    }

    /// Takes the next message in arrival order.
    package func next(timeout: Duration = .seconds(10), _ what: String = "a message") async throws -> DaemonMessage {
        let deadline = ContinuousClock.now + timeout
        while inbox.isEmpty {
            try await fill(until: deadline, waitingFor: what)
        }
        return inbox.removeFirst()
    }

    /// Takes the next message and requires it to be an event.
    package func nextEvent(timeout: Duration = .seconds(10), _ what: String = "an event") async throws -> DaemonMessage
    {
        let message = try await next(timeout: timeout, what)
        guard message.isEvent else {
            throw DaemonTestError(description: "expected \(what), got \(message)\n\(context())")
        }
        return message
    }

    /// Takes events until one satisfies `condition` (included); any other message on the way is an error.
    package func events(
        until what: String,
        timeout: Duration = .seconds(10),
        _ condition: (DaemonMessage) -> Bool
    ) async throws -> [DaemonMessage] {
        let deadline = ContinuousClock.now + timeout
        var events: [DaemonMessage] = []
        while true {
            let left = deadline - ContinuousClock.now
            let event = try await nextEvent(timeout: max(left, .zero), "events until \(what) (so far: \(events))")
            events.append(event)
            if condition(event) { return events }
        }
    }

    /// Takes the events of the next change: the next event and those after it with the same seq.
    ///
    /// A `get` round trip after the first event is the barrier: the daemon sends all events of a change before it
    /// handles the next request, so every event of this change is read before the `get` reply. Events of later
    /// changes stay in the inbox.
    package func nextChange(
        timeout: Duration = .seconds(10),
        _ what: String = "a change"
    ) async throws -> [DaemonMessage] {
        let first = try await nextEvent(timeout: timeout, what)
        _ = try await call("get", timeout: timeout)
        var change = [first]
        while let index = inbox.firstIndex(where: { $0.isEvent }), inbox[index].seq == first.seq {
            change.append(inbox.remove(at: index))
        }
        return change
    }

    /// Reads whatever the socket holds now, without waiting; returns the number of messages added to the inbox.
    @discardableResult
    package func readAvailable() -> Int {
        let before = log.count
        _ = receive(waitingMilliseconds: 0)
        return log.count - before
    }

    /// Reads at most `limit` bytes of what the socket holds now, without waiting: a client that reads less than it is
    /// sent. Returns the bytes read.
    @discardableResult
    package func readAvailable(atMost limit: Int) -> Int {
        receive(waitingMilliseconds: 0, atMost: limit)
    }

    /// Waits until the daemon closes the connection, reading (and keeping) what it sends before.
    /// - Returns: whether it closed before `timeout`.
    package func waitUntilClosed(timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !closedByDaemon && ContinuousClock.now < deadline {
            _ = receive(waitingMilliseconds: 20)
            await Task.yield()
        }
        return closedByDaemon
    }

    /// Waits up to 20 ms for data and reads it; throws when the deadline has passed or the daemon closed.
    private func fill(until deadline: ContinuousClock.Instant, waitingFor what: String) async throws {
        if closedByDaemon {
            throw DaemonTestError(description: "the daemon closed the connection before \(what)\n\(context())")
        }
        if ContinuousClock.now >= deadline {
            let recent = log.suffix(8).map(\.text).joined(separator: "\n")
            throw DaemonTestError(
                description: "timed out waiting for \(what); last messages read:\n\(recent)\n\(context())"
            )
        }
        if receive(waitingMilliseconds: 20) == 0 { await Task.yield() }
    }

    /// Polls for up to `waitingMilliseconds`, then reads until the socket is empty (or `limit` bytes are read);
    /// returns the bytes read.
    private func receive(waitingMilliseconds: Int32, atMost limit: Int = .max) -> Int {
        guard fd >= 0, !closedByDaemon, limit > 0 else { return 0 }
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, waitingMilliseconds) > 0 else { return 0 }
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 65536)
        while total < limit {
            let wanted = min(chunk.count, limit - total)
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, wanted, 0) }
            if count > 0 {
                total += count
                receivedByteCount += count
                buffer.append(contentsOf: chunk[0..<count])
                continue
            }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
            // EOF, or ECONNRESET: a Unix socket closed with unread data reports that after the last byte.
            closedByDaemon = true
            break
        }
        frameLines()
        return total
    }

    private func frameLines() {
        var start = buffer.startIndex
        while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = buffer[start..<newline]
            let text = String(decoding: line, as: UTF8.self)
            let json: DaemonJSON
            do {
                json = try DaemonJSON.parse(line)
            } catch {
                Issue.record("the daemon sent a line that is not JSON: \(text)")
                json = .null
            }
            let message = DaemonMessage(json: json, text: text)
            log.append(message)
            inbox.append(message)
            start = newline + 1
        }
        buffer.removeSubrange(buffer.startIndex..<start)
    }
}
