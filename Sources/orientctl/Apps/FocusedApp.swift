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

/// The app of the window that has the focus, by the names a rule of follow.conf's `[Apps]` may match.
struct FocusedApp: Sendable, Hashable {
    /// Its names, the main one first: the Wayland `app_id` (sway, niri), Hyprland's `class`, or X11's
    /// `WM_CLASS` class then instance; never empty.
    var names: [String]

    /// An app from its names; nil when it has none (a window without an `app_id` or class).
    init?(names: [String?]) {
        var unique: [String] = []
        for case let name? in names where !name.isEmpty && !unique.contains(name) { unique.append(name) }
        guard !unique.isEmpty else { return nil }
        self.names = unique
    }

    /// The main name, for messages and `status`.
    var name: String { names[0] }
}

/// A compositor's account of which window has the focus, told as it changes: no polling.
protocol FocusSource: Sendable {
    /// The desktop's name in messages.
    var desktop: String { get }

    /// The focused app now, then at each change (nil: no window, or one without a name), until the task is
    /// cancelled or the compositor's stream ends.
    /// - Throws: when the stream cannot be opened or ends (the compositor went away), with the text to report.
    func watch(_ changed: @Sendable (FocusedApp?) async -> Void) async throws(QueryFailure)
}
