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

import OrientClient
import OrientProtocol

/// The notifier of `suggest` and `follow --suggest` beside their client: it shows nothing until the monitor of
/// the notification server listens (so that no action on a notification is missed), and accepts a suggestion
/// with a lock of its orientation.
struct SuggestionDriver {
    private var notifier = SuggestionNotifier(bus: NotificationBus())
    private let client: OrientClient
    private let json: Bool
    /// Whether the monitor listens.
    private var ready = false
    /// The daemon's state last told, to show once the monitor listens.
    private var latest: OrientationState?

    /// The failure when the notification server's monitor ends: the session bus went away.
    static let monitorEnded = CommandFailure(
        status: CommandFailure.unreachableStatus,
        message: "the session bus went away ('busctl --user monitor' ended): no more notifications"
    )

    /// The failure when the monitor ends before it listens: there is no session bus to reach.
    static let noSessionBus = CommandFailure(
        status: CommandFailure.unreachableStatus,
        message: "cannot reach the session bus ('busctl --user monitor' ended at once): run it in the graphical "
            + "session, where DBUS_SESSION_BUS_ADDRESS (or XDG_RUNTIME_DIR/bus) leads to it"
    )

    /// Whether the monitor of the notification server listens.
    var isReady: Bool { ready }

    init(client: OrientClient, json: Bool) {
        self.client = client
        self.json = json
    }

    /// Starts the monitor of the notification server; `signal` is called with each of its signals, then nil when
    /// it ends. Cancel the task to stop it.
    /// - Throws: the failure to report when there is no session bus or no busctl.
    static func watch(
        _ signal: @escaping @Sendable (NotificationBus.Signal?) -> Void
    ) throws(CommandFailure)
        -> Task<Void, Never>
    {
        do {
            return try NotificationBus().watch(signal)
        } catch {
            throw CommandFailure(
                status: CommandFailure.unreachableStatus,
                message: "cannot watch the notification server on the session bus: \(error.message)"
            )
        }
    }

    /// Takes the daemon's state.
    mutating func state(_ state: OrientationState) async {
        latest = state
        guard ready else { return }
        report(await notifier.take(state))
    }

    /// Takes a signal of the notification server.
    mutating func signal(_ signal: NotificationBus.Signal) async {
        if signal == .ready {
            guard !ready else { return }
            ready = true
            if let latest { report(await notifier.take(latest)) }
            return
        }
        let client = client
        report(
            await notifier.take(signal) { orientation in
                do throws(OrientClientError) {
                    _ = try await client.lock(.orientation(orientation))
                    return true
                } catch {
                    StandardStreams.error(
                        "orientctl: cannot accept the rotation suggestion: \(CommandFailure(error).message)"
                    )
                    return false
                }
            }
        )
    }

    private func report(_ reports: [SuggestionNotifier.Report]) {
        for report in reports { StandardStreams.output(report.line(json: json)) }
    }
}
