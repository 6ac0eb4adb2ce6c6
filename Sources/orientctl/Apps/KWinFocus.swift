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
import FoundationEssentials
import OrientClient

/// `orientctl kwin-focus`: the session-bus service orientd's KWin script tells the active window to, which holds
/// the focused app's follow.conf `[Apps]` rule on orientd as `follow` does on sway.
struct KWinFocus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kwin-focus",
        abstract: "Hold the [Apps] rule of the window KWin activates (the service of orientd's KWin script).",
        discussion: """
            On KDE Plasma, KWin tells the active window only to its own scripts. orientd's KWin script \
            (orientd-app-orientations) calls this service on the session bus at each activation: \
            org.orientd.AppFocus, object /org/orientd/AppFocus, method Activated(resource_class, \
            resource_name, desktop_file_name), empty strings for no active window. The bus starts it on \
            the first call (its D-Bus service file); it can also be run by hand.

            It holds the mask of the first [Apps] rule of follow.conf that matches one of those names as its \
            constraint on orientd, with the holder 'app NAME (KDE script)' that orientctl status shows, and \
            releases it when another window is activated. KWin reports no active window for a moment between \
            two activations: the constraint is released only when no window has been activated for 0.5 s, so \
            that switching between two windows of a ruled app never drops and takes it again. follow.conf is \
            read again when it changes (at the next activation); a mistake in it is said once, and no app is \
            ruled until it is corrected. When orientd goes away (a restart), it says so, connects again, and \
            says when it holds the constraint again. SIGINT or \
            SIGTERM end it with status 0 (the constraint goes with the connection).
            """
    )

    @OptionGroup var global: GlobalOptions

    /// How long no active window must last before the rule is released: longer than KWin's moment between two
    /// activations, short enough that a closed app's rule goes at once for a person.
    static let releaseDelay = Duration.milliseconds(500)

    private enum Input {
        case activated([String?])
        case noWindowSettled(Int)
        case connection(OrientClient.ConnectionState)
        case busEnded(String)
    }

    func run() async throws {
        let signals = TerminationSignals.catching()
        let (inputs, sink) = AsyncStream.makeStream(of: Input.self)
        let bus: AppFocusBus
        do {
            bus = try AppFocusBus { names in sink.yield(.activated(names)) }
        } catch {
            throw CommandFailure(status: 1, message: error.message)
        }
        bus.serve { why in sink.yield(.busEnded(why)) }
        let client = OrientClient(socketPath: global.socketPath)
        let connectionStates = Task {
            for await state in client.connectionStates { sink.yield(.connection(state)) }
        }
        let environment = ProcessInfo.processInfo.environment
        StandardStreams.error("orientctl: serving \(AppFocusBus.name) on the session bus for orientd's KWin script")
        try await TerminationSignals.runUntilSignalled(signals) {
            var rules = AppRulesFile(path: FollowConfiguration.path(in: environment))
            var apps = AppConstraint(rules: rules.read(), dryRun: false, via: "KDE script")
            var activations = 0
            for await input in inputs {
                switch input {
                case .activated(let names):
                    activations += 1
                    if rules.changed() { await apps.replaceRules(rules.read(), on: client) }
                    if let app = FocusedApp(names: names) {
                        await apps.focus(app, on: client)
                    } else {
                        // KWin's moment without an active window, or the last window closed: wait and see.
                        let activation = activations
                        Task {
                            try? await Task.sleep(for: Self.releaseDelay)
                            sink.yield(.noWindowSettled(activation))
                        }
                    }
                case .noWindowSettled(let activation) where activation == activations:
                    await apps.focus(nil, on: client)
                case .noWindowSettled:
                    break
                case .connection(let state):
                    await apps.connection(state, on: client)
                case .busEnded(let why):
                    StandardStreams.error("orientctl: \(why)")
                    return
                }
            }
        }
        connectionStates.cancel()
        sink.finish()
        await client.close()
    }
}
