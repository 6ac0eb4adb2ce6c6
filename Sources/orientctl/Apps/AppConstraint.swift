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
import OrientationCore

/// The constraint `follow` holds for the focused app: the mask of its `[Apps]` rule while it has the focus, none
/// otherwise, and none while a lock is in force (the user's lock wins over every app's rule). Each change is
/// sent to the daemon once and said on standard error.
struct AppConstraint {
    /// The rules, in file order.
    private(set) var rules: [AppRule]
    /// The focused app, as the compositor last told.
    private var focused: FocusedApp?
    /// Whether the daemon's state shows a lock.
    private var locked = false
    /// What the daemon holds for this connection now: the app and its rule.
    private var held: Holding?
    /// What was last tried and refused, so that a refusal is said once.
    private var refused: Holding?
    /// The rule a lock sets aside now, so that it is said once.
    private var setAside: Holding?
    /// Whether the connection to orientd was lost and has not come back yet.
    private var disconnected = false

    private struct Holding: Equatable {
        var app: String
        var rule: AppRule
    }

    /// `--dry-run`: say what would be held, hold nothing.
    let dryRun: Bool
    /// What holds the constraint, when not `follow` itself, named after the app for `status`: `KDE script` gives
    /// the holder `app mpv (KDE script)`.
    let via: String?

    init(rules: [AppRule], dryRun: Bool, via: String? = nil) {
        self.rules = rules
        self.dryRun = dryRun
        self.via = via
    }

    /// The rules from now on (follow.conf read again); the focused app's rule is looked up again.
    mutating func replaceRules(_ rules: [AppRule], on client: OrientClient) async {
        self.rules = rules
        await update(client)
    }

    /// Takes the newly focused app.
    mutating func focus(_ app: FocusedApp?, on client: OrientClient) async {
        focused = app
        await update(client)
    }

    /// Takes a state from the daemon (its lock).
    mutating func state(_ state: OrientationState, on client: OrientClient) async {
        let isLocked = state.lock != nil
        guard isLocked != locked else { return }
        locked = isLocked
        await update(client)
    }

    /// Says when the connection to orientd is lost, and when orientd is back and the rule is held again (the client
    /// re-sends the constraint as it reconnects), as the GNOME extension does; a rule orientd now refuses is said and
    /// tried again at the next change.
    mutating func connection(_ state: OrientClient.ConnectionState, on client: OrientClient) async {
        switch state {
        case .reconnecting(attempt: 1):
            disconnected = true
            let what = held.map { ": \($0.rule.mask) for \($0.app) is held again once it answers" } ?? ""
            StandardStreams.error(
                "orientctl: lost orientd at \(client.socketPath); trying again until it answers\(what)"
            )
        case .connected where disconnected:
            disconnected = false
            StandardStreams.error("orientctl: connected to orientd again at \(client.socketPath)")
            guard let held else { return }
            if await client.constraint == held.rule.mask {
                StandardStreams.error(
                    "orientctl: \(held.app) has the focus: holding \(held.rule.mask) again (follow.conf [Apps] line \(held.rule.line))"
                )
            } else {
                StandardStreams.error(
                    "orientctl: orientd refused to hold \(held.rule.mask) for \(held.app) again; tried again at the next change"
                )
                self.held = nil
                refused = held
            }
        default:
            break
        }
    }

    /// The rule of the focused app, whether or not a lock sets it aside.
    private var ruled: Holding? {
        guard let focused,
            let rule = rules.first(where: { rule in focused.names.contains(where: rule.matches) })
        else { return nil }
        return Holding(app: focused.name, rule: rule)
    }

    /// The holder `status` shows: `app mpv`, or `app mpv (KDE script)`.
    private func holder(for app: String) -> String {
        let text = via.map { "app \(app) (\($0))" } ?? "app \(app)"
        return text.count <= Request.holderLimit ? text : String(text.prefix(Request.holderLimit - 1)) + "…"
    }

    private mutating func update(_ client: OrientClient) async {
        let want = locked ? nil : ruled
        if locked, let ruled, ruled != setAside {
            StandardStreams.error("orientctl: the lock wins over the rule of \(ruled.app) (\(ruled.rule.mask))")
        }
        setAside = locked ? ruled : nil
        // Another app under the same mask is sent too, so that `status` names the app that has the focus.
        guard want != held else { return }
        if dryRun {
            let what = want.map { "would hold \($0.rule.mask) for \($0.app)" } ?? "would release the app's constraint"
            StandardStreams.error("orientctl: (dry run) \(what)")
            held = want
            return
        }
        do {
            try await client.constrain(want?.rule.mask, holder: want.map { holder(for: $0.app) })
            if let want {
                StandardStreams.error(
                    "orientctl: \(want.app) has the focus: holding \(want.rule.mask) (follow.conf [Apps] line \(want.rule.line))"
                )
            } else if let held {
                let why = locked ? "the lock wins" : "\(held.app) lost the focus"
                StandardStreams.error("orientctl: released \(held.rule.mask): \(why)")
            }
            held = want
            refused = nil
        } catch {
            guard refused != want else { return }
            refused = want
            let what =
                want.map { "hold \($0.rule.mask) for \($0.app)" } ?? "release \(held?.rule.mask.description ?? "")"
            StandardStreams.error("orientctl: cannot \(what): \(error.description)")
        }
    }
}
