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
