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

import Dispatch
import Foundation
import Glibc
import OrientProtocol
import Synchronization
import SystemSupport

/// A test double of orientd: a real Unix socket server in the test that reads request lines and
/// answers with lines the test scripts.
package final class ScriptedPeer: Sendable {
    /// The socket's path.
    package let path: String
    private let listener: Int32

    /// Listens on `path` (which must not exist).
    package init(path: String) throws {
        self.path = path
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try check(listener >= 0, "socket")
        let bound = try UnixSocketAddress(path: path).withSocketAddress { bind(listener, $0, $1) }
        try check(bound == 0, "bind \(path)")
        try check(listen(listener, 8) == 0, "listen")
    }

    deinit {
        Glibc.close(listener)
    }

    /// Accepts the next connection; fails after `timeout` (a guard only).
    package func accept(timeout: Duration = .seconds(20)) async throws -> PeerConnection {
        let listener = listener
        let descriptor = try await onThread {
            try waitReadable(listener, timeout: timeout, "accept")
            // Close-on-exec, as the listener: a child another test spawns later must not keep this end open, or a
            // close here (a daemon restarting) would never reach the client as the end of the stream. (accept4 is
            // not in Swift's Glibc module.)
            let accepted = Glibc.accept(listener, nil, nil)
            if accepted >= 0 { _ = fcntl(accepted, F_SETFD, FD_CLOEXEC) }
            return accepted
        }
        try check(descriptor >= 0, "accept")
        return PeerConnection(descriptor: descriptor)
    }

    /// Stops listening and removes the socket file, as a daemon that exits does.
    package func stopListening() {
        shutdown(listener, Int32(SHUT_RDWR))
        unlink(path)
    }
}

/// One accepted connection of a ``ScriptedPeer``.
package final class PeerConnection: Sendable {
    private let descriptor: Int32
    private let buffer = Mutex<[UInt8]>([])

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        Glibc.close(descriptor)
    }

    /// The next line the client sent, without its newline; nil at the end of the stream.
    package func readLine(timeout: Duration = .seconds(20)) async throws -> String? {
        while true {
            let line = buffer.withLock { buffer -> String? in
                guard let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
                defer { buffer.removeSubrange(...newline) }
                return String(decoding: buffer[..<newline], as: UTF8.self)
            }
            if let line { return line }
            let descriptor = descriptor
            let bytes = try await onThread { () throws -> [UInt8]? in
                try waitReadable(descriptor, timeout: timeout, "read")
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
                return count > 0 ? Array(chunk[..<count]) : nil
            }
            guard let bytes else { return nil }
            buffer.withLock { $0 += bytes }
        }
    }

    /// Reads `count` lines and fails if the stream ends first.
    package func readLines(_ count: Int) async throws -> [String] {
        var lines: [String] = []
        for _ in 0..<count {
            guard let line = try await readLine() else { throw PeerError("the client closed after \(lines)") }
            lines.append(line)
        }
        return lines
    }

    /// Reads `count` requests one at a time, answering each as ``Fixture/reply(to:)`` does; returns them.
    @discardableResult
    package func answer(_ count: Int) async throws -> [String] {
        var lines: [String] = []
        for _ in 0..<count {
            guard let line = try await readLine() else { throw PeerError("the client closed after \(lines)") }
            lines.append(line)
            try send(Fixture.reply(to: line))
        }
        return lines
    }

    /// Sends lines (each already ending in a newline).
    package func send(_ lines: [UInt8]...) throws {
        do {
            try FileDescriptor(rawValue: descriptor).writeAll(lines.flatMap { $0 }, using: .send)
        } catch {
            throw PeerError("send: \(error)")
        }
    }

    /// Closes the connection, as a daemon that exits does.
    package func close() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }
}

/// A failure of the test double itself.
package struct PeerError: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}

private func check(_ condition: Bool, _ operation: String) throws {
    guard condition else { throw PeerError("\(operation): \(Errno.current)") }
}

private func waitReadable(_ descriptor: Int32, timeout: Duration, _ operation: String) throws {
    var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    let milliseconds = Int32(timeout.components.seconds * 1000)
    let ready = poll(&entry, 1, milliseconds)
    guard ready > 0 else { throw PeerError("\(operation): nothing after \(timeout)") }
}

/// Runs blocking work on a thread of its own, off the cooperative pool. A queue of its own (overcommitting)
/// rather than the global queue, whose few threads blocked here would delay the client's own read queue.
package func onThread<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue(label: "scripted-peer").async { continuation.resume(with: Result { try body() }) }
    }
}

/// A directory of its own for one test (tests run in parallel), removed afterwards.
package func withTemporaryDirectory<Value>(_ body: (String) async throws -> Value) async throws -> Value {
    var template = Array("/tmp/orientclient-XXXXXX".utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    try check(made != nil, "mkdtemp")
    let directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    return try await body(directory)
}

/// Waits for the next element of `sequence`, failing after `timeout` (a guard only).
package func next<Element: Sendable>(
    _ sequence: AsyncStream<Element>,
    timeout: Duration = .seconds(20)
) async throws -> Element {
    try await withThrowingTaskGroup(of: Element?.self) { group in
        group.addTask {
            var iterator = sequence.makeAsyncIterator()
            return await iterator.next()
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw PeerError("nothing in \(timeout)")
        }
        defer { group.cancelAll() }
        guard let element = try await group.next() ?? nil else { throw PeerError("the stream ended") }
        return element
    }
}
