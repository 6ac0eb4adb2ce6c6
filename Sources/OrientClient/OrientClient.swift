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

public import OrientProtocol
public import OrientationCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An async client of orientd for apps: typed calls, the events, and reconnecting.
///
/// When the connection drops (the daemon restarts), the client reconnects with back-off and re-sends
/// its constraint and as many `begin`s as it has outstanding, so that ``events`` keeps coming; calls
/// made while it is reconnecting fail with ``OrientClientError/Code/connectionClosed``, and
/// ``connectionStates`` tells when it is back. Call ``close()`` when done.
///
/// ```swift
/// let client = OrientClient()
/// try await client.begin()
/// for await event in client.events where event.name == .interface {
///     apply(event.state.transform)
/// }
/// ```
public actor OrientClient {
    /// Where the client stands with its connection.
    public enum ConnectionState: Sendable, Hashable {
        /// Not connected yet: the first call, or ``OrientClient/connect()``, connects.
        case disconnected
        /// Connected; after a reconnection, the constraint and the `begin`s have been re-sent.
        case connected
        /// The connection dropped; this attempt (from 1) is waiting or connecting.
        case reconnecting(attempt: Int)
        /// ``OrientClient/close()`` was called.
        case closed
    }

    /// How long to wait before each reconnection attempt: `initialDelay`, doubling up to `maximumDelay`.
    public struct ReconnectPolicy: Sendable, Hashable {
        /// The wait before the first attempt.
        public var initialDelay: Duration
        /// The longest wait between attempts.
        public var maximumDelay: Duration

        /// A policy from its delays.
        public init(initialDelay: Duration = .milliseconds(100), maximumDelay: Duration = .seconds(5)) {
            self.initialDelay = initialDelay
            self.maximumDelay = maximumDelay
        }

        /// 0.1 s doubling to 5 s.
        public static let standard = ReconnectPolicy()
    }

    /// `$ORIENTD_SOCKET` when set and not empty, else `/run/orientd/socket`.
    public static var defaultSocketPath: String {
        if let value = getenv("ORIENTD_SOCKET"), value.pointee != 0 { return String(cString: value) }
        return "/run/orientd/socket"
    }

    /// The socket's path.
    public nonisolated let socketPath: String
    /// The back-off between reconnection attempts.
    public nonisolated let reconnectPolicy: ReconnectPolicy
    /// The events of every connection in turn, while this client generates (after ``begin()``);
    /// finishes at ``close()``. One consumer.
    public nonisolated let events: AsyncStream<OrientationEvent>
    /// Each change of ``connectionState``; finishes at ``close()``. One consumer.
    public nonisolated let connectionStates: AsyncStream<ConnectionState>

    /// Where the client stands with its connection.
    public private(set) var connectionState = ConnectionState.disconnected
    /// The `begin`s not yet ended: re-sent after reconnecting.
    public private(set) var generationCount = 0
    /// This client's constraint: re-sent after reconnecting.
    public private(set) var constraint: InterfaceOrientationMask?
    /// What the constraint is for, as `status` shows it: re-sent with it.
    private var constraintHolder: String?

    private var connection: OrientConnection?
    private var supervisor: Task<Void, Never>?
    private let eventSink: AsyncStream<OrientationEvent>.Continuation
    private let stateSink: AsyncStream<ConnectionState>.Continuation

    /// A client of the daemon at `socketPath`; it connects at the first call.
    public init(socketPath: String = OrientClient.defaultSocketPath, reconnectPolicy: ReconnectPolicy = .standard) {
        self.socketPath = socketPath
        self.reconnectPolicy = reconnectPolicy
        (events, eventSink) = AsyncStream.makeStream(of: OrientationEvent.self)
        (connectionStates, stateSink) = AsyncStream.makeStream(
            of: ConnectionState.self,
            bufferingPolicy: .bufferingNewest(64)
        )
    }

    deinit {
        supervisor?.cancel()
        connection?.close()
        eventSink.finish()
        stateSink.finish()
    }

    /// Connects now rather than at the first call; does nothing when connected or reconnecting.
    /// - Throws: ``OrientClientError/Code/cannotConnect`` (no reconnecting before the first connection),
    ///   ``OrientClientError/Code/clientClosed`` after ``close()``.
    public func connect() async throws(OrientClientError) {
        switch connectionState {
        case .connected, .reconnecting:
            return
        case .closed:
            throw OrientClientError(.clientClosed, socketPath: socketPath)
        case .disconnected:
            let connection = try OrientConnection(socketPath: socketPath)
            self.connection = connection
            setState(.connected)
            supervise(connection)
        }
    }

    /// The daemon's protocol and version, and whether it has a sensor.
    public func hello() async throws(OrientClientError) -> HelloResult {
        try await call(.hello, returning: HelloResult.self)
    }

    /// The state now (the device orientation is `unknown` while nobody generates).
    public func get() async throws(OrientClientError) -> OrientationState {
        try await call(.get, returning: OrientationState.self)
    }

    /// Starts receiving events (and the sensor, for the first client); nests like
    /// UIDevice's beginGeneratingDeviceOrientationNotifications.
    /// - Returns: this connection's count and the state.
    @discardableResult
    public func begin() async throws(OrientClientError) -> BeginResult {
        let result = try await call(.begin, returning: BeginResult.self)
        generationCount += 1
        return result
    }

    /// Ends one ``begin()``; the events stop when the count reaches 0.
    /// - Throws: the daemon's `not-generating` when nothing was begun.
    @discardableResult
    public func end() async throws(OrientClientError) -> EndResult {
        let result = try await call(.end, returning: EndResult.self)
        generationCount = max(0, generationCount - 1)
        return result
    }

    /// Locks the interface orientation (controllers only): the current one, an orientation, or a mask.
    @discardableResult
    public func lock(_ target: Request.LockTarget = .current) async throws(OrientClientError) -> OrientationState {
        try await call(.lock, .lock(target), returning: OrientationState.self)
    }

    /// Removes the lock (controllers only).
    @discardableResult
    public func unlock() async throws(OrientClientError) -> OrientationState {
        try await call(.unlock, returning: OrientationState.self)
    }

    /// Restricts the interface orientations while this client is connected (controllers only);
    /// nil removes the constraint. Re-sent after reconnecting.
    /// - Parameter holder: what the constraint is for (`app mpv`), which `status` shows; at most
    ///   ``Request/holderLimit`` characters.
    @discardableResult
    public func constrain(
        _ mask: InterfaceOrientationMask?,
        holder: String? = nil
    ) async throws(OrientClientError) -> OrientationState {
        let state = try await call(.constrain, .constrain(mask, holder: holder), returning: OrientationState.self)
        constraint = mask
        constraintHolder = mask == nil ? nil : holder
        return state
    }

    /// The daemon's diagnostics.
    public func status() async throws(OrientClientError) -> StatusReport {
        try await call(.status, returning: StatusReport.self)
    }

    /// Closes the connection and ends ``events`` and ``connectionStates``; later calls fail.
    public func close() {
        guard connectionState != .closed else { return }
        setState(.closed)
        supervisor?.cancel()
        connection?.close()
        connection = nil
        eventSink.finish()
        stateSink.finish()
    }

    private func call<Value: Decodable & Sendable>(
        _ method: Request.Method,
        _ parameters: Request.Parameters = .none,
        returning type: Value.Type
    ) async throws(OrientClientError) -> Value {
        try await connect()
        guard let connection else { throw OrientClientError(.connectionClosed, socketPath: socketPath) }
        return try await connection.call(Request(method: method, parameters: parameters), returning: type).value
    }

    private func setState(_ state: ConnectionState) {
        connectionState = state
        stateSink.yield(state)
    }

    /// Forwards the events of each connection in turn, and reconnects when one ends. Holds the client
    /// weakly while forwarding, so that a client released without ``close()`` still goes away.
    private func supervise(_ first: OrientConnection) {
        let sink = eventSink
        supervisor = Task.detached { [weak self] in
            var connection = first
            while !Task.isCancelled {
                for await received in connection.events { sink.yield(received.value) }
                guard let next = await self?.reconnect() else { return }
                connection = next
            }
        }
    }

    /// Connects again with back-off and restores this client's constraint and `begin`s; nil once closed.
    private func reconnect() async -> OrientConnection? {
        connection = nil
        var delay = reconnectPolicy.initialDelay
        var attempt = 0
        while connectionState != .closed {
            attempt += 1
            setState(.reconnecting(attempt: attempt))
            do {
                try await Task.sleep(for: delay)
            } catch {
                return nil
            }
            delay = min(delay * 2, reconnectPolicy.maximumDelay)
            guard connectionState != .closed else { return nil }
            guard let candidate = try? OrientConnection(socketPath: socketPath) else { continue }
            do {
                try await restore(on: candidate)
            } catch {
                candidate.close()
                continue
            }
            guard connectionState != .closed else {
                candidate.close()
                return nil
            }
            connection = candidate
            setState(.connected)
            return candidate
        }
        return nil
    }

    /// Re-sends the constraint first, so that the first events already respect it, then the `begin`s.
    /// A constraint the daemon now refuses (its configuration changed) is dropped rather than retried forever.
    private func restore(on connection: OrientConnection) async throws(OrientClientError) {
        if let constraint {
            do {
                _ = try await connection.call(
                    Request(method: .constrain, parameters: .constrain(constraint, holder: constraintHolder))
                )
            } catch  where error.code == .daemon {
                self.constraint = nil
            }
        }
        for _ in 0..<generationCount {
            _ = try await connection.call(Request(method: .begin))
        }
    }
}
