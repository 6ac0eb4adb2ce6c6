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
public import OrientProtocol
import Synchronization
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One connection to orientd, without reconnecting: requests answered in order, events as a stream.
///
/// ``OrientClient`` builds on it and adds reconnecting; tools that must notice the daemon going away
/// (`orientctl watch`) use it directly. The connection stays open until ``close()``, the daemon closes it,
/// or it is released. A reader on a private dispatch queue splits the daemon's lines; the task awaiting
/// a reply is resumed from there, and events go to ``events``.
public final class OrientConnection: Sendable {
    /// The socket's path.
    public let socketPath: String
    /// The events received, in order; finishes when the connection closes (then see ``closeReason``).
    public let events: AsyncStream<Received<OrientationEvent>>

    private struct Pending: Sendable {
        var id: RequestID?
        var continuation: CheckedContinuation<Result<[UInt8], OrientClientError>, Never>
    }

    private struct State {
        /// Replies come in request order, so the oldest pending call is the one answered next.
        var pending: [Pending] = []
        var framer = LineFramer(limit: 1 << 20)
        var closeReason: OrientClientError?
        /// An error the daemon sent with no request to answer (`too-many-clients` before it closes).
        var unsolicitedError: ProtocolError?
        /// Calls ``readAvailable()`` on a private queue; cancelled once, on closing, which closes the socket.
        var readSource: (any DispatchSourceRead)?
    }

    private let socket: UnixSocket
    private let eventSink: AsyncStream<Received<OrientationEvent>>.Continuation
    private let state = Mutex(State())
    /// Held while a request is queued and written, so that concurrent calls are written in the order
    /// their continuations were queued; holds the last request id used.
    private let sendLock = Mutex<Int64>(0)

    /// Connects to orientd.
    /// - Parameter socketPath: the socket; by default `$ORIENTD_SOCKET`, else `/run/orientd/socket`.
    /// - Throws: ``OrientClientError/Code/cannotConnect`` with the errno of connect(2).
    public init(socketPath: String = OrientClient.defaultSocketPath) throws(OrientClientError) {
        self.socketPath = socketPath
        do {
            socket = try UnixSocket(connectingTo: socketPath)
        } catch {
            throw OrientClientError(.cannotConnect, socketPath: socketPath, errno: error.rawValue)
        }
        (events, eventSink) = AsyncStream.makeStream(of: Received<OrientationEvent>.self)
        let queue = DispatchQueue(label: "orientd.client.read")
        let socket = socket
        state.withLock { state in
            let source = DispatchSource.makeReadSource(fileDescriptor: socket.descriptor, queue: queue)
            source.setEventHandler { [weak self] in self?.readAvailable() }
            source.setCancelHandler { socket.close() }
            state.readSource = source
            source.activate()
        }
    }

    deinit {
        finish(OrientClientError(.clientClosed, socketPath: socketPath))
    }

    /// Why the connection closed; nil while it is open.
    public var closeReason: OrientClientError? {
        state.withLock { $0.closeReason }
    }

    /// Sends a request and returns the reply's line. A request without an id gets the next number.
    ///
    /// Cancelling the calling task does not withdraw the request: its reply still has to be read.
    /// - Throws: ``OrientClientError/Code/daemon`` for an error reply, ``OrientClientError/Code/connectionClosed``
    ///   when the connection closes first.
    public func call(_ request: Request) async throws(OrientClientError) -> [UInt8] {
        let result = await withCheckedContinuation { continuation in
            send(request, replyingTo: continuation)
        }
        return try result.get()
    }

    /// Sends a request and decodes the reply's `result` as `type`.
    /// - Throws: as ``call(_:)``, and ``OrientClientError/Code/invalidReply`` when the result does not decode.
    public func call<Value: Decodable & Sendable>(
        _ request: Request,
        returning type: Value.Type
    ) async throws(OrientClientError) -> Received<Value> {
        let line = try await call(request)
        do {
            return Received(value: try ServerMessage.result(type, from: line), line: line)
        } catch {
            throw OrientClientError(.invalidReply, socketPath: socketPath, detail: "\(error)")
        }
    }

    /// Closes the connection; pending calls fail with ``OrientClientError/Code/clientClosed``.
    public func close() {
        finish(OrientClientError(.clientClosed, socketPath: socketPath))
    }

    private func send(
        _ request: Request,
        replyingTo continuation: CheckedContinuation<Result<[UInt8], OrientClientError>, Never>
    ) {
        sendLock.withLock { lastID in
            var request = request
            if request.id == nil {
                lastID += 1
                request.id = .number(lastID)
            }
            let closed = state.withLock { state -> OrientClientError? in
                if let reason = state.closeReason { return reason }
                state.pending.append(Pending(id: request.id, continuation: continuation))
                return nil
            }
            if let closed {
                continuation.resume(returning: .failure(closed))
                return
            }
            do throws(Errno) {
                try socket.send(request.line.utf8)
            } catch {
                finish(OrientClientError(.connectionClosed, socketPath: socketPath, errno: error.rawValue))
            }
        }
    }

    /// Runs on the read queue when the socket is readable: reads until nothing is left, handling each line.
    private func readAvailable() {
        while true {
            let count: Int
            do {
                // Through a Result: Swift 6.0 takes what a standard-library closure throws as `any Error`.
                count = try withUnsafeTemporaryAllocation(byteCount: 64 * 1024, alignment: 1) { buffer in
                    Result { () throws(Errno) in
                        let count = try socket.read(into: buffer)
                        state.withLock { $0.framer.append(UnsafeRawBufferPointer(rebasing: buffer[..<count])) }
                        return count
                    }
                }
                .get()
            } catch {
                if error != .wouldBlock { finish(closedByDaemon(errno: error.rawValue)) }
                return
            }
            while case .line(let line) = nextLine() { handle(line) }
            if count == 0 {
                finish(closedByDaemon(errno: nil))
                return
            }
        }
    }

    /// The next complete line; closes the connection on a line over the limit.
    private func nextLine() -> LineFramer.Next {
        let next = state.withLock { $0.framer.nextLine() }
        if next == .tooLong {
            finish(OrientClientError(.invalidReply, socketPath: socketPath, detail: "a line over 1 MiB"))
        }
        return next
    }

    private func handle(_ line: [UInt8]) {
        let message: ServerMessage
        do {
            message = try ServerMessage.decode(line)
        } catch {
            let text = String(decoding: line.prefix(200), as: UTF8.self)
            finish(OrientClientError(.invalidReply, socketPath: socketPath, detail: "\(text) (\(error))"))
            return
        }
        switch message {
        case .event(let event):
            eventSink.yield(Received(value: event, line: line))
        case .result(let id, _):
            complete(id: id, with: .success(line))
        case .error(let id, let error):
            complete(id: id, with: .failure(OrientClientError(.daemon, socketPath: socketPath, protocolError: error)))
        }
    }

    private func complete(id: RequestID?, with result: Result<[UInt8], OrientClientError>) {
        let next = state.withLock { state -> Pending? in
            guard !state.pending.isEmpty else {
                if case .failure(let error) = result { state.unsolicitedError = error.protocolError }
                return nil
            }
            return state.pending.removeFirst()
        }
        guard let next else { return }
        // A reply that could not be parsed has id null; any other id must be the one asked.
        if let id, id != next.id {
            let error = OrientClientError(
                .invalidReply,
                socketPath: socketPath,
                detail: "the reply to \(id) came when \(next.id.map(\.description) ?? "null") was expected"
            )
            next.continuation.resume(returning: .failure(error))
            finish(error)
            return
        }
        next.continuation.resume(returning: result)
    }

    private func closedByDaemon(errno: Int32?) -> OrientClientError {
        let unsolicited = state.withLock { $0.unsolicitedError }
        return OrientClientError(.connectionClosed, socketPath: socketPath, errno: errno, protocolError: unsolicited)
    }

    /// Closes once: fails the pending calls with `reason`, ends ``events``, releases the socket.
    private func finish(_ reason: OrientClientError) {
        let pending = state.withLock { state -> [Pending]? in
            guard state.closeReason == nil else { return nil }
            state.closeReason = reason
            state.readSource?.cancel()
            defer { state.pending = [] }
            return state.pending
        }
        guard let pending else { return }
        for call in pending { call.continuation.resume(returning: .failure(reason)) }
        eventSink.finish()
    }
}
