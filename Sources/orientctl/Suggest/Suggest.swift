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

import ArgumentParser
import OrientClient
import OrientProtocol
import OrientationCore

/// `orientctl suggest`: rotation suggestions as desktop notifications.
struct Suggest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show each rotation suggestion as a desktop notification with a Rotate action, until interrupted.",
        discussion: """
            While rotation is locked and the device is turned to an orientation only the lock forbids, orientd \
            suggests that orientation for a while ([Policy] SuggestionSec=). This command starts the sensor \
            (begin) and shows each suggestion as a notification (org.freedesktop.Notifications on the session \
            bus, through 'busctl --user') with a Rotate action, and an icon that turns the way the screen \
            would: choosing it locks the suggested orientation, as 'orientctl rotate' does, so the screen turns \
            once and stays locked. The notification is replaced when the suggestion moves, and closed when it \
            goes (the device turned back, the lock changed, the time ran out). It prints \
            'suggestion=O shown', 'suggestion=O accepted' or 'suggestion=O withdrawn' per notification \
            (with --json: {"notification":"shown","suggestion":"O"}).

            A notification server without actions (the capability 'actions') shows the notification without a \
            button; orientctl says so once: bind 'orientctl rotate' to a key or a bar button instead. When the \
            notification server restarts, the suggestion standing is shown by the new one; when orientd \
            restarts, orientctl reconnects. SIGINT or SIGTERM end it with status 0. 'orientctl follow --suggest' \
            does the same beside follow; orientctl-suggest.service runs it in the session.
            """
    )

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let signals = TerminationSignals.catching()
        let connection = try await FollowedConnection(socketPath: global.socketPath)
        let (client, begun) = (connection.client, connection.begun)
        let (triggers, sink) = (connection.triggers, connection.sink)
        let notifications: Task<Void, Never>
        do {
            notifications = try SuggestionDriver.watch { sink.yield(.notification($0)) }
        } catch {
            await connection.close()
            throw error
        }
        let json = global.json
        do {
            try await TerminationSignals.runUntilSignalled(signals) {
                var driver = SuggestionDriver(client: client, json: json)
                await driver.state(begun.state)
                for await trigger in triggers {
                    switch trigger {
                    case .state(let state):
                        await driver.state(state)
                    case .reconnected:
                        if let state = try? await client.get() { await driver.state(state) }
                    case .notification(let signal?):
                        await driver.signal(signal)
                    case .notification(nil):
                        throw driver.isReady ? SuggestionDriver.monitorEnded : SuggestionDriver.noSessionBus
                    case .displaysChanged, .focus:
                        break
                    }
                }
            }
        } catch {
            notifications.cancel()
            await notifications.value
            await connection.close()
            throw error
        }
        notifications.cancel()
        // The monitor's busctl is ended and reaped by then.
        await notifications.value
        await connection.close()
    }
}

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
