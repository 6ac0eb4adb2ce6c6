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

/// The desktops `orientctl follow` can rotate.
enum BackendKind: String, CaseIterable, Sendable, ExpressibleByArgument {
    case sway
    case hyprland
    case niri
    case kde
    case cosmic
    case wlr
    case x11
    case exec

    /// The backend the session's variables point to: `SWAYSOCK` for sway, `HYPRLAND_INSTANCE_SIGNATURE`
    /// for Hyprland, `NIRI_SOCKET` for niri, `KDE` in `XDG_CURRENT_DESKTOP` (or `KDE_FULL_SESSION`) for
    /// KDE Plasma, `COSMIC` in it for COSMIC, then any other Wayland session but GNOME's for wlr, and
    /// `DISPLAY` without `WAYLAND_DISPLAY` for X11; nil when none does.
    static func detected(in environment: [String: String]) -> BackendKind? {
        func isSet(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
        let desktops = (environment["XDG_CURRENT_DESKTOP"] ?? "").uppercased().split(separator: ":")
        if isSet("SWAYSOCK") { return .sway }
        if isSet("HYPRLAND_INSTANCE_SIGNATURE") { return .hyprland }
        if isSet("NIRI_SOCKET") { return .niri }
        if desktops.contains("KDE") || environment["KDE_FULL_SESSION"] == "true" { return .kde }
        if desktops.contains("COSMIC") { return .cosmic }
        // GNOME rotates itself (through orientd's D-Bus compatibility) and has no wlr-output-management.
        if desktops.contains("GNOME") { return nil }
        if isSet("WAYLAND_DISPLAY") { return .wlr }
        if isSet("DISPLAY") { return .x11 }
        return nil
    }
}
