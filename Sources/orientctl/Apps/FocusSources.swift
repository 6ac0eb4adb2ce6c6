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

/// Where each backend's focus changes come from, for follow.conf's `[Apps]` rules.
enum FocusSources {
    /// The focus source of a backend; nil where the desktop tells no focus changes that follow can read.
    static func source(for kind: BackendKind, environment: [String: String]) -> (any FocusSource)? {
        switch kind {
        case .sway: SwayFocus()
        case .hyprland: HyprlandFocus(environment: environment)
        case .x11: X11Focus()
        case .niri: NiriFocus()
        case .kde, .cosmic, .wlr, .exec: nil
        }
    }

    /// Why a backend without a focus source has none, said once at start.
    static func unsupportedReason(_ kind: BackendKind) -> String {
        switch kind {
        case .kde:
            "KWin tells the focused window only to its own scripts: orientd's KWin script applies the rules on "
                + "Plasma instead (System Settings, Window Management, KWin Scripts: orientd app orientations; "
                + "docs/desktop.md)"
        case .cosmic: "COSMIC offers no focus events to other programs"
        case .wlr:
            "wlroots compositors share no common focus events (sway and Hyprland have their own: --backend sway|hyprland)"
        case .exec:
            "the --exec command rotates whatever it rotates; name the desktop with --backend to follow its focus"
        case .sway, .hyprland, .x11, .niri: ""
        }
    }
}
