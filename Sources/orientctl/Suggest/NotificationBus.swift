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

import FoundationEssentials

/// The desktop's notification server, org.freedesktop.Notifications on the session bus (the Desktop
/// Notifications Specification), through systemd's `busctl --user`: its calls (`--json=short` answers) and,
/// from `busctl monitor`, its signals and the changes of its owner (a server that restarts or goes).
struct NotificationBus: Sendable {
    static let name = "org.freedesktop.Notifications"
    static let path = "/org/freedesktop/Notifications"
    /// The interface of orientctl's own signal that tells the monitor is listening.
    static let readyInterface = "org.orientd.orientctl.Monitor"

    /// A notification to show.
    struct Notification: Sendable {
        /// The icon's name (freedesktop icon naming).
        var icon: String
        var summary: String
        var body: String
        /// Pairs of action key and label; `default` is the notification's own click.
        var actions: [(key: String, label: String)]
        /// Milliseconds before the server may take it away by itself; 0: never.
        var expireMilliseconds: Int32
    }

    /// What the monitor reports.
    enum Signal: Sendable, Hashable {
        /// `ActionInvoked`: the action `key` of notification `id` was chosen.
        case actionInvoked(id: UInt32, key: String)
        /// `NotificationClosed`: notification `id` went (`reason` 1 expired, 2 dismissed, 3 closed by a call).
        case closed(id: UInt32, reason: UInt32)
        /// The server's name has a new owner (a server started or restarted), or none (nil: it went).
        case ownerChanged(String?)
        /// The monitor listens: nothing sent from now on is missed.
        case ready
    }

    /// The notification server's name and capabilities.
    struct Server: Sendable, Hashable {
        var name: String
        var capabilities: [String]
        var hasActions: Bool { capabilities.contains("actions") }
    }

    /// One value of a message's payload, as `busctl --json=short` writes it.
    enum Value: Decodable, Hashable {
        case number(Double)
        case text(String)
        case list([Value])
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else if let list = try? container.decode([Value].self) {
                self = .list(list)
            } else {
                self = .other
            }
        }

        var text: String? {
            if case .text(let value) = self { value } else { nil }
        }

        var unsigned: UInt32? {
            guard case .number(let value) = self, value >= 0, value <= Double(UInt32.max) else { return nil }
            return UInt32(value)
        }
    }

    /// A reply or a monitored message, as far as it matters here.
    struct Message: Decodable {
        struct Payload: Decodable {
            var data: [Value]
        }

        var type: String
        var interface: String?
        var member: String?
        var payload: Payload?
        /// A call's reply has its values here.
        var data: [Value]?
    }

    /// Reads one line of `busctl monitor --json=short`; nil for a message that is none of ``Signal``.
    static func signal(fromMonitorLine line: String) -> Signal? {
        guard let message = try? JSONDecoder().decode(Message.self, from: Data(line.utf8)), message.type == "signal"
        else { return nil }
        let data = message.payload?.data ?? []
        switch (message.interface, message.member) {
        case (name, "ActionInvoked"):
            guard data.count == 2, let id = data[0].unsigned, let key = data[1].text else { return nil }
            return .actionInvoked(id: id, key: key)
        case (name, "NotificationClosed"):
            guard data.count == 2, let id = data[0].unsigned, let reason = data[1].unsigned else { return nil }
            return .closed(id: id, reason: reason)
        case ("org.freedesktop.DBus", "NameOwnerChanged"):
            guard data.count == 3, data[0].text == name, let owner = data[2].text else { return nil }
            return .ownerChanged(owner.isEmpty ? nil : owner)
        case (readyInterface, "Ready"):
            return .ready
        default:
            return nil
        }
    }

    /// The `busctl monitor` command: the server's two signals (from whoever owns its name now), the changes of
    /// its owner, and orientctl's own readiness signal.
    static var monitorArguments: [String] {
        [
            "busctl", "--user", "--json=short", "monitor",
            "--match=type='signal',sender='\(name)',path='\(path)',interface='\(name)'",
            "--match=type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                + "member='NameOwnerChanged',arg0='\(name)'",
            "--match=type='signal',interface='\(readyInterface)',member='Ready'",
        ]
    }

    /// Calls `signal` with each of the server's signals from now on, ``Signal/ready`` first (once the monitor
    /// listens), then nil if the monitor ends by itself (the session bus went). Cancel the task to stop: the
    /// monitor is ended and reaped by the time the task is over.
    /// - Throws: when `busctl` cannot start.
    func watch(_ signal: @escaping @Sendable (Signal?) -> Void) throws(QueryFailure) -> Task<Void, Never> {
        // Its standard error says only "Monitoring bus message stream."; a bus that cannot be reached ends it.
        let lines = try LineStream.lines(ofProgram: Self.monitorArguments, discardingErrors: true)
        // The monitor may not listen yet: say Ready until it hears it (each time a fresh busctl, a few ms).
        let greeter = Task {
            for _ in 0..<100 where !Task.isCancelled {
                _ = await ExternalCommand(arguments: [
                    "busctl", "--user", "emit", "/org/orientd/orientctl", Self.readyInterface, "Ready",
                ]).run()
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        return Task {
            var greeted = false
            // Read here, in the task itself: cancelling it ends the stream, which ends and reaps busctl at once.
            for await line in lines {
                guard let received = Self.signal(fromMonitorLine: line) else { continue }
                if received == .ready {
                    greeter.cancel()
                    if greeted { continue }
                    greeted = true
                }
                signal(received)
            }
            greeter.cancel()
            if !Task.isCancelled { signal(nil) }
        }
    }

    /// The server's name (`GetServerInformation`) and capabilities (`GetCapabilities`).
    func server() async throws(QueryFailure) -> Server {
        let information = try await call("GetServerInformation")
        let capabilities = try await call("GetCapabilities")
        guard case .list(let names)? = capabilities.first else {
            throw QueryFailure(message: "GetCapabilities answered no list")
        }
        return Server(
            name: information.first?.text ?? "the notification server",
            capabilities: names.compactMap(\.text)
        )
    }

    /// Shows `notification`, in place of notification `replacing` (0: none), with orientctl as its application.
    /// - Returns: its id.
    func notify(_ notification: Notification, replacing: UInt32) async throws(QueryFailure) -> UInt32 {
        var arguments = [
            "orientctl", String(replacing), notification.icon, notification.summary, notification.body,
            String(notification.actions.count * 2),
        ]
        for action in notification.actions { arguments += [action.key, action.label] }
        // Hints: a passing message about the device, not kept in the server's history.
        arguments += ["3", "category", "s", "device", "transient", "b", "true", "urgency", "y", "1"]
        arguments.append(String(notification.expireMilliseconds))
        let reply = try await call("Notify", signature: "susssasa{sv}i", arguments)
        guard let id = reply.first?.unsigned else { throw QueryFailure(message: "Notify answered no id") }
        return id
    }

    /// Takes notification `id` away.
    func close(_ id: UInt32) async throws(QueryFailure) {
        _ = try await call("CloseNotification", signature: "u", [String(id)])
    }

    private func call(
        _ method: String,
        signature: String? = nil,
        _ arguments: [String] = []
    ) async throws(QueryFailure) -> [Value] {
        var command = ["busctl", "--user", "--json=short", "call", Self.name, Self.path, Self.name, method]
        if let signature { command += [signature] + arguments }
        let outcome = await ExternalCommand(arguments: command, timeout: .seconds(10)).run()
        guard outcome.succeeded else { throw QueryFailure(message: outcome.failureText) }
        guard let reply = try? JSONDecoder().decode(Message.self, from: Data(outcome.output.utf8)) else {
            throw QueryFailure(message: "'busctl call \(method)' answered what is not JSON: \(outcome.output)")
        }
        return reply.data ?? []
    }
}
