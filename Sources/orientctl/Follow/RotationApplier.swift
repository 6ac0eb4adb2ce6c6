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

/// Applies interface orientations through a backend: each new one once, a failed one again after a
/// reconnection; reports what it applied on standard output and what failed on standard error.
struct RotationApplier {
    /// What makes `follow` look at the state.
    enum Trigger: Sendable {
        /// An event's state.
        case state(OrientationState)
        /// orientd is back after going away.
        case reconnected
        /// The connected external monitors changed (`--pause-external`).
        case displaysChanged
        /// Another app has the focus (nil: none, or one without a name), for the `[Apps]` rules.
        case focus(FocusedApp?)
        /// A signal of the notification server (`--suggest`); nil: its monitor ended (the session bus went).
        case notification(NotificationBus.Signal?)
    }

    let backend: any DisplayBackend
    let panelOffset: PanelRotation
    let json: Bool
    let dryRun: Bool
    let policy: FollowPolicy

    /// The state shown and the rotation applied last tried.
    private var attempted: Target?
    /// The state shown and the rotation applied last applied completely.
    private var applied: Target?
    /// The latest state orientd sent.
    private var latest: OrientationState?
    /// The external monitors that hold rotation, while they do.
    private var pausedBy: [String]?
    /// The panel's natural orientation, as the daemon's states show it (the interface of rotation 0).
    private var natural: NaturalOrientation?

    /// What one application does: the state to show and the rotation of the display (the offset added).
    private struct Target: Equatable {
        var interface: InterfaceOrientation
        var rotation: PanelRotation
    }

    init(backend: any DisplayBackend, panelOffset: PanelRotation, json: Bool, dryRun: Bool, policy: FollowPolicy) {
        self.backend = backend
        self.panelOffset = panelOffset
        self.json = json
        self.dryRun = dryRun
        self.policy = policy
    }

    /// Applies `state` if what it asks for is known and new, or, with `again`, not yet applied (the start,
    /// a reconnection, the end of a pause).
    mutating func consider(_ state: OrientationState, again: Bool) async {
        latest = state
        guard let shown = shownState(for: state), let rotation = shown.rotation else { return }
        var again = again
        if policy.pauseExternal {
            let externals = DRMConnectors().externalMonitors.map(\.name)
            if !externals.isEmpty {
                if pausedBy != externals {
                    StandardStreams.error(
                        "orientctl: rotation paused while an external monitor is connected "
                            + "(\(externals.joined(separator: ", "))); it resumes when none is"
                    )
                }
                pausedBy = externals
                return
            }
            if pausedBy != nil {
                pausedBy = nil
                again = true
                StandardStreams.error("orientctl: no external monitor connected; rotation resumes")
            }
        }
        let target = Target(interface: shown.interface, rotation: rotation.adding(panelOffset))
        guard target != attempted || (again && target != applied) else { return }
        attempted = target
        if await apply(shown, rotation: target.rotation) {
            applied = target
        }
    }

    /// Looks again at the latest state after the external monitors changed.
    mutating func displaysChanged() async {
        guard let latest else { return }
        await consider(latest, again: true)
    }

    /// The state as `follow` applies and prints it: the daemon's, or, with `--natural-in-laptop-mode` out of
    /// tablet mode, the natural orientation; nil while there is nothing to apply.
    private mutating func shownState(for state: OrientationState) -> OrientationState? {
        if let rotation = state.rotation, state.interface != .unknown {
            natural =
                NaturalOrientation.allCases.first { state.interface.panelRotation(natural: $0) == rotation }
                ?? natural
        }
        if policy.naturalInLaptopMode, state.tabletMode == false {
            var shown = state
            shown.interface = .natural(natural ?? .landscape)
            shown.rotation = .degrees0
            return shown
        }
        return state.interface == .unknown || state.rotation == nil ? nil : state
    }

    /// Runs (or, dry, prints) the backend's commands, then the `--then` command after a rotation that
    /// worked; true when the backend's commands all worked.
    private func apply(_ state: OrientationState, rotation: PanelRotation) async -> Bool {
        await ExternalCommand.$timeLimit.withValue(policy.timeout) {
            let plan = await backend.plan(for: state, rotation: rotation)
            let hook = policy.then.flatMap { then in
                state.hookEnvironment(panelOffset: panelOffset).map { variables in
                    ExternalCommand(arguments: ["/bin/sh", "-c", then], environment: variables, capturesOutput: false)
                }
            }
            if dryRun {
                StandardStreams.output(state.orientationLine)
                for command in plan.commands + (hook.map { [$0] } ?? []) { StandardStreams.output(command.shellText) }
                return report(plan.failures, state: state, rotation: rotation)
            }
            var failures = plan.failures
            for command in plan.commands {
                let outcome = await command.run()
                if !outcome.succeeded { failures.append(outcome.failureText) }
            }
            guard report(failures, state: state, rotation: rotation) else { return false }
            print(state)
            if let hook {
                let outcome = await hook.run()
                if !outcome.succeeded { StandardStreams.error("orientctl: the --then command \(outcome.failureText)") }
            }
            return true
        }
    }

    /// Reports each failure; true when there is none.
    private func report(_ failures: [String], state: OrientationState, rotation: PanelRotation) -> Bool {
        for failure in failures {
            StandardStreams.error(
                "orientctl: cannot apply interface=\(state.interface.wireName) rotation=\(rotation.degrees): "
                    + "\(failure); trying again at the next change"
            )
        }
        return failures.isEmpty
    }

    private func print(_ state: OrientationState) {
        guard json else { return StandardStreams.output(state.orientationLine) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if let text = try? encoder.encode(state) {
            StandardStreams.output(json: Array(text))
        } else {
            StandardStreams.output(state.orientationLine)
        }
    }
}
