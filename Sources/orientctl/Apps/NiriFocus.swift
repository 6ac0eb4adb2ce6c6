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

/// niri's focus, from its event stream: `niri msg --json event-stream` prints one event a line, beginning with
/// the whole current state (`WindowsChanged`), then `WindowOpenedOrChanged`, `WindowClosed` and
/// `WindowFocusChanged` (an id, or null when no window has the focus) as they happen.
struct NiriFocus: FocusSource {
    var desktop: String { "niri" }

    /// A window as niri describes it, as far as the focus needs it.
    struct Window: Decodable {
        var id: UInt64
        var appID: String?
        var isFocused: Bool?

        private enum CodingKeys: String, CodingKey {
            case id
            case appID = "app_id"
            case isFocused = "is_focused"
        }
    }

    /// One event line; each is an object with one member named after the event.
    struct Event: Decodable {
        struct Windows: Decodable { var windows: [Window] }
        struct Opened: Decodable { var window: Window }
        struct Identified: Decodable { var id: UInt64? }

        var windowsChanged: Windows?
        var windowOpenedOrChanged: Opened?
        var windowClosed: Identified?
        var windowFocusChanged: Identified?

        private enum CodingKeys: String, CodingKey {
            case windowsChanged = "WindowsChanged"
            case windowOpenedOrChanged = "WindowOpenedOrChanged"
            case windowClosed = "WindowClosed"
            case windowFocusChanged = "WindowFocusChanged"
        }
    }

    /// The windows' app ids and the focused window, as the events tell them.
    struct Tracker {
        private var apps: [UInt64: String] = [:]
        private var focusedID: UInt64?

        /// The focused window's app.
        var app: FocusedApp? { focusedID.flatMap { FocusedApp(names: [apps[$0]]) } }

        mutating func take(_ event: Event) {
            if let changed = event.windowsChanged {
                apps = [:]
                focusedID = nil
                for window in changed.windows { remember(window) }
            }
            if let opened = event.windowOpenedOrChanged { remember(opened.window) }
            if let closed = event.windowClosed?.id {
                apps[closed] = nil
                if focusedID == closed { focusedID = nil }
            }
            if let focus = event.windowFocusChanged { focusedID = focus.id }
        }

        private mutating func remember(_ window: Window) {
            apps[window.id] = window.appID ?? ""
            if window.isFocused == true {
                focusedID = window.id
            } else if focusedID == window.id, window.isFocused == false {
                focusedID = nil
            }
        }
    }

    func watch(_ changed: @Sendable (FocusedApp?) async -> Void) async throws(QueryFailure) {
        let lines = try LineStream.lines(ofProgram: ["niri", "msg", "--json", "event-stream"])
        let decoder = JSONDecoder()
        var tracker = Tracker()
        var last: FocusedApp??
        for await line in lines {
            guard let event = try? decoder.decode(Event.self, from: Data(line.utf8)) else { continue }
            tracker.take(event)
            guard last != .some(tracker.app) else { continue }
            last = .some(tracker.app)
            await changed(tracker.app)
        }
        if !Task.isCancelled {
            throw QueryFailure(message: "niri's event stream ended ('niri msg --json event-stream'): did niri exit?")
        }
    }
}
