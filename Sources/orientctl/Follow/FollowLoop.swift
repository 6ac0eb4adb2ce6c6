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
import OrientClient
import OrientProtocol
import OrientationCore

/// The run of `orientctl follow`: one loop that takes, in order, the daemon's states and reconnections, the
/// connectors' changes (`--pause-external`), the focus (`[Apps]`) and the notification server's signals
/// (`--suggest`), and applies each through the backend until SIGINT or SIGTERM.
struct FollowLoop {
    var settings: FollowSettings
    /// Whether states are printed as the daemon's JSON (`--json`).
    var json: Bool
    /// Whether commands are printed instead of run (`--dry-run`).
    var dryRun: Bool

    /// Connects to the daemon at `socketPath` and follows it until SIGINT or SIGTERM.
    /// - Throws: the failure to report when the daemon cannot be reached at the start.
    func run(socketPath: String) async throws {
        let signals = TerminationSignals.catching()
        let (settings, json, dryRun) = (settings, json, dryRun)
        // The events and the reconnections, in one stream that one loop applies in order.
        let connection = try await FollowedConnection(socketPath: socketPath)
        let (client, begun) = (connection.client, connection.begun)
        let (triggers, sink) = (connection.triggers, connection.sink)
        // With --pause-external: a look at the connectors every 2 s (sysfs has no change notification).
        let displays = Task {
            guard settings.policy.pauseExternal else { return }
            var externals = DRMConnectors().externalMonitors
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(2))
                let now = DRMConnectors().externalMonitors
                if now != externals { sink.yield(.displaysChanged) }
                externals = now
            }
        }
        // With [Apps] rules: the compositor's focus changes, as it tells them.
        let focus = Task {
            guard !settings.apps.isEmpty else { return }
            guard let source = FocusSources.source(for: settings.kind, environment: ProcessInfo.processInfo.environment)
            else {
                StandardStreams.error(
                    "orientctl: the [Apps] rules of follow.conf do not apply with --backend \(settings.kind.rawValue): "
                        + FocusSources.unsupportedReason(settings.kind)
                )
                return
            }
            do throws(QueryFailure) {
                try await source.watch { app in sink.yield(.focus(app)) }
            } catch {
                StandardStreams.error("orientctl: the [Apps] rules stop applying: \(error.message)")
                sink.yield(.focus(nil))
            }
        }
        // With --suggest: the notification server's signals.
        var notifications: Task<Void, Never>?
        if settings.suggest {
            do {
                notifications = try SuggestionDriver.watch { sink.yield(.notification($0)) }
            } catch {
                StandardStreams.error("orientctl: rotation suggestions are not shown: \(error.message)")
            }
        }
        let suggests = notifications != nil
        try await TerminationSignals.runUntilSignalled(signals) {
            var suggestions = suggests ? SuggestionDriver(client: client, json: json) : nil
            var apps = AppConstraint(rules: settings.apps, dryRun: dryRun)
            var applier = RotationApplier(
                backend: settings.backend,
                panelOffset: settings.panelOffset,
                json: json,
                dryRun: dryRun,
                policy: settings.policy
            )
            await apps.state(begun.state, on: client)
            await applier.consider(begun.state, again: true)
            await suggestions?.state(begun.state)
            for await trigger in triggers {
                switch trigger {
                case .state(let state):
                    await apps.state(state, on: client)
                    await applier.consider(state, again: false)
                    await suggestions?.state(state)
                case .notification(let signal?):
                    await suggestions?.signal(signal)
                case .notification(nil):
                    let failure =
                        suggestions?.isReady == true ? SuggestionDriver.monitorEnded : SuggestionDriver.noSessionBus
                    StandardStreams.error("orientctl: rotation suggestions are not shown: \(failure.message)")
                    suggestions = nil
                case .focus(let app):
                    await apps.focus(app, on: client)
                case .reconnected:
                    // The daemon's state after the restart: a lock may have set the orientation without an event.
                    if let state = try? await client.get() {
                        await applier.consider(state, again: true)
                        await suggestions?.state(state)
                    }
                case .displaysChanged:
                    await applier.displaysChanged()
                }
            }
        }
        displays.cancel()
        focus.cancel()
        notifications?.cancel()
        // The monitor's busctl is ended and reaped by then.
        await notifications?.value
        await connection.close()
    }
}
