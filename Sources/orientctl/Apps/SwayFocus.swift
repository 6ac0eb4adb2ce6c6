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

/// sway's focus, from its IPC: `swaymsg -t subscribe -m '["window","workspace"]'` prints one event a line; the
/// current focus comes from `swaymsg -t get_tree` once, after subscribing, so that no change falls between.
struct SwayFocus: FocusSource {
    var desktop: String { "sway" }

    /// A node of sway's tree, as far as the focus needs it.
    struct Node: Decodable {
        struct WindowProperties: Decodable {
            var `class`: String?
            var instance: String?
        }

        var id: Int
        var focused: Bool?
        var appID: String?
        var windowProperties: WindowProperties?
        var nodes: [Node]?
        var floatingNodes: [Node]?

        private enum CodingKeys: String, CodingKey {
            case id, focused, nodes
            case appID = "app_id"
            case windowProperties = "window_properties"
            case floatingNodes = "floating_nodes"
        }

        /// The app of this window: its `app_id`, or the X11 class and instance of an Xwayland window; nil for
        /// a workspace or an output.
        var app: FocusedApp? {
            FocusedApp(names: [appID, windowProperties?.class, windowProperties?.instance])
        }

        /// The focused node in this tree, if any.
        var focusedNode: Node? {
            if focused == true { return self }
            for child in (nodes ?? []) + (floatingNodes ?? []) {
                if let found = child.focusedNode { return found }
            }
            return nil
        }
    }

    /// One event line: a `window` event has `container`, a `workspace` event `current`.
    struct Event: Decodable {
        var change: String
        var container: Node?
        var current: Node?
    }

    /// What follows from the focus and events: the focused window's id and app.
    struct Tracker {
        private(set) var focusedID: Int?
        private(set) var app: FocusedApp?

        /// Starts from the tree's focused node.
        init(tree: Node?) {
            set(tree?.focusedNode)
        }

        /// Takes one event line; returns whether the focused app may have changed.
        mutating func take(_ event: Event) -> Bool {
            switch (change: event.change, container: event.container, current: event.current) {
            case (change: "focus", container: let container?, current: _):
                set(container)
            case (change: "close", container: let container?, current: _) where container.id == focusedID:
                set(nil)
            case (change: "focus", container: nil, current: let workspace?):
                // Another workspace: its focused window, or the workspace itself when it is empty (then no window
                // event comes), which has no app.
                set(workspace.focusedNode)
            default:
                return false
            }
            return true
        }

        private mutating func set(_ node: Node?) {
            focusedID = node?.id
            app = node?.app
        }
    }

    func watch(_ changed: @Sendable (FocusedApp?) async -> Void) async throws(QueryFailure) {
        let lines = try LineStream.lines(ofProgram: [
            "swaymsg", "-m", "-r", "-t", "subscribe", #"["window","workspace"]"#,
        ])
        let decoder = JSONDecoder()
        let tree = await ExternalCommand(arguments: ["swaymsg", "-r", "-t", "get_tree"]).run()
        guard tree.succeeded else { throw QueryFailure(message: tree.failureText) }
        var tracker = Tracker(tree: try? decoder.decode(Node.self, from: Data(tree.output.utf8)))
        var last = tracker.app
        await changed(last)
        for await line in lines {
            guard let event = try? decoder.decode(Event.self, from: Data(line.utf8)), tracker.take(event),
                tracker.app != last
            else { continue }
            last = tracker.app
            await changed(last)
        }
        if !Task.isCancelled {
            throw QueryFailure(message: "sway's event stream ended ('swaymsg -t subscribe'): did sway exit?")
        }
    }
}
