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

import OrientProtocol
import OrientationCore

/// What ``SuggestionNotifier`` needs of the notification server; ``NotificationBus`` in orientctl.
protocol NotificationService: Sendable {
    /// The server's name and capabilities.
    func server() async throws(QueryFailure) -> NotificationBus.Server
    /// Shows a notification in place of `replacing` (0: none); its id.
    func notify(_ notification: NotificationBus.Notification, replacing: UInt32) async throws(QueryFailure) -> UInt32
    /// Takes a notification away.
    func close(_ id: UInt32) async throws(QueryFailure)
}

extension NotificationBus: NotificationService {}

/// `orientctl suggest`: the daemon's rotation suggestion as a desktop notification with a "Rotate" action.
///
/// Shown when a suggestion appears, replaced (same id) when it moves to another orientation, closed when it goes.
/// Choosing "Rotate" (or clicking the notification: its `default` action) locks the suggested orientation. A
/// notification the user dismissed is not shown again for the same suggestion. When the server restarts, its
/// notifications are gone: the suggestion standing is shown again by the new one. A server without actions
/// gets the notification without a button, and orientctl says once what to bind `orientctl rotate` to instead.
struct SuggestionNotifier {
    /// What is reported, one line each.
    enum Report: Equatable {
        case shown(InterfaceOrientation)
        case accepted(InterfaceOrientation)
        case withdrawn(InterfaceOrientation)
    }

    /// The action keys that accept: the button's, and the notification's own click.
    static let acceptingKeys: Set<String> = ["rotate", "default"]
    /// How long a server may keep the notification by itself: the longest `SuggestionSec=`, so that the daemon
    /// always withdraws it first, and a notification left by an orientctl that was killed still goes.
    static let expireMilliseconds: Int32 = 60_000

    private let bus: any NotificationService
    /// The daemon's suggestion, as last told.
    private(set) var suggestion: InterfaceOrientation?
    /// The interface orientation, for the icon's direction.
    private var interface = InterfaceOrientation.unknown
    /// The notification showing the suggestion, if any.
    private(set) var shown: (id: UInt32, orientation: InterfaceOrientation)?
    /// Whether the user dismissed the notification of the suggestion standing.
    private var dismissed = false
    /// The server, once asked (asked again after it restarts).
    private var server: NotificationBus.Server?
    private var saidNoActions = false
    /// The last failure to reach the server, said once until it works again.
    private var lastProblem: String?

    init(bus: any NotificationService) {
        self.bus = bus
    }

    /// Takes the daemon's state: shows, moves or withdraws the notification.
    /// - Returns: what happened, to report.
    mutating func take(_ state: OrientationState) async -> [Report] {
        interface = state.interface
        guard state.suggestion != suggestion else { return [] }
        suggestion = state.suggestion
        dismissed = false
        if state.suggestion == nil { return await withdraw() }
        return await show()
    }

    /// Takes a signal of the notification server. An action on the notification shown calls `accept` with its
    /// orientation (it locks it); true when that worked.
    mutating func take(
        _ signal: NotificationBus.Signal,
        accept: (InterfaceOrientation) async -> Bool
    ) async -> [Report] {
        switch signal {
        case .actionInvoked(let id, let key):
            guard let shown, shown.id == id, Self.acceptingKeys.contains(key) else { return [] }
            self.shown = nil
            // The server closes a notification whose action was chosen; one that keeps it is told to.
            try? await bus.close(id)
            return await accept(shown.orientation) ? [.accepted(shown.orientation)] : []
        case .closed(let id, _):
            guard let shown, shown.id == id else { return [] }
            self.shown = nil
            dismissed = true
            return []
        case .ownerChanged(let owner):
            // A new server (or none) has none of the old one's notifications.
            server = nil
            shown = nil
            guard owner != nil, !dismissed else { return [] }
            return await show()
        case .ready:
            return []
        }
    }

    /// Shows the suggestion standing, in place of the notification shown.
    private mutating func show() async -> [Report] {
        guard let suggestion else { return [] }
        do throws(QueryFailure) {
            let server = try await knownServer()
            let notification = Self.notification(for: suggestion, from: interface, actions: server.hasActions)
            let id = try await bus.notify(notification, replacing: shown?.id ?? 0)
            shown = (id, suggestion)
            lastProblem = nil
            return [.shown(suggestion)]
        } catch {
            if error.message != lastProblem {
                StandardStreams.error("orientctl: cannot show the rotation suggestion: \(error.message)")
            }
            lastProblem = error.message
            return []
        }
    }

    /// Closes the notification shown, if any.
    private mutating func withdraw() async -> [Report] {
        guard let shown else { return [] }
        self.shown = nil
        // A server that already took it away (it expired, it restarted) answers with an error: nothing to do.
        try? await bus.close(shown.id)
        return [.withdrawn(shown.orientation)]
    }

    /// The server, asked once; says once when it has no actions.
    private mutating func knownServer() async throws(QueryFailure) -> NotificationBus.Server {
        if let server { return server }
        let server = try await bus.server()
        self.server = server
        if !server.hasActions, !saidNoActions {
            saidNoActions = true
            StandardStreams.error(
                "orientctl: the notification server, \(server.name), shows no actions: its notification can tell "
                    + "of a rotation suggestion but not accept it. Bind 'orientctl rotate' to a key or a bar button "
                    + "to accept one (docs/desktop.md)"
            )
        }
        return server
    }

    /// The notification for `suggestion` while the interface is `interface`: the icon turns the way the picture
    /// will turn.
    static func notification(
        for suggestion: InterfaceOrientation,
        from interface: InterfaceOrientation,
        actions: Bool
    ) -> NotificationBus.Notification {
        let name = suggestion.wireName.replacing("-", with: " ")
        return NotificationBus.Notification(
            icon: icon(from: interface, to: suggestion),
            summary: "Rotate to \(name)?",
            body: actions
                ? "Rotation is locked. Rotate turns the screen to \(name) and keeps it locked there."
                : "Rotation is locked. 'orientctl rotate' turns the screen to \(name) and keeps it locked there.",
            actions: actions ? [(key: "default", label: "Rotate"), (key: "rotate", label: "Rotate")] : [],
            expireMilliseconds: expireMilliseconds
        )
    }

    /// The icon (freedesktop icon naming) of the turn from `interface` to `suggestion`: a quarter turn
    /// counter-clockwise `object-rotate-left`, clockwise `object-rotate-right`, a half turn
    /// `object-flip-vertical`.
    static func icon(from interface: InterfaceOrientation, to suggestion: InterfaceOrientation) -> String {
        // The difference of two rotations does not depend on the natural orientation.
        guard let from = interface.panelRotation(natural: .landscape),
            let to = suggestion.panelRotation(natural: .landscape)
        else { return "object-rotate-left" }
        switch (to.degrees - from.degrees + 360) % 360 {
        case 90: return "object-rotate-left"
        case 270: return "object-rotate-right"
        default: return "object-flip-vertical"
        }
    }
}

extension SuggestionNotifier.Report {
    /// `suggestion=portrait shown`, `… accepted`, `… withdrawn`; with --json, one object:
    /// `{"notification":"shown","suggestion":"portrait"}`.
    func line(json: Bool) -> String {
        let (orientation, what) =
            switch self {
            case .shown(let orientation): (orientation, "shown")
            case .accepted(let orientation): (orientation, "accepted")
            case .withdrawn(let orientation): (orientation, "withdrawn")
            }
        return json
            ? #"{"notification":"\#(what)","suggestion":"\#(orientation.wireName)"}"#
            : "suggestion=\(orientation.wireName) \(what)"
    }
}
