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

/// What applying one rotation takes: the commands to run, and what already failed while finding them.
struct ApplyPlan: Sendable {
    var commands: [ExternalCommand] = []
    /// Failures of the queries (no output found, the input list unreadable), one text each.
    var failures: [String] = []
}

/// One way of applying a rotation to a desktop.
protocol DisplayBackend: Sendable {
    /// The commands that turn the display (and its touch and pen input) to `rotation`, the rotation of
    /// `state` plus the panel offset; queries the compositor for what it needs.
    func plan(for state: OrientationState, rotation: PanelRotation) async -> ApplyPlan
}

/// A failure of one query, as the text to report.
struct QueryFailure: Error {
    var message: String
}

extension DisplayBackend {
    /// Runs a query and returns its standard output.
    func query(_ arguments: [String]) async throws(QueryFailure) -> String {
        let outcome = await ExternalCommand(arguments: arguments).run()
        guard outcome.succeeded else { throw QueryFailure(message: outcome.failureText) }
        return outcome.output
    }

    /// The built-in panel among the names of the active outputs: the connected eDP, DSI or LVDS connector
    /// of DRM (sysfs) under its name there; without DRM, the one called eDP…, LVDS… or DSI…, else the only
    /// output.
    /// - Throws: when there is none, when the panel is not among them (switched off, the lid closed), or
    ///   when it cannot tell.
    static func builtInOutput(among names: [String], from source: String) throws(QueryFailure) -> String {
        let panels = DRMConnectors().panels
        if !panels.isEmpty {
            let matched = panels.compactMap { DRMConnectors.output(among: names, for: $0) }
            if matched.count == 1 { return matched[0] }
            let panelNames = panels.map(\.name).joined(separator: ", ")
            if matched.isEmpty {
                throw QueryFailure(
                    message: "the built-in panel (\(panelNames), from DRM) is not among the active outputs of "
                        + "\(source) (\(names.isEmpty ? "none" : names.joined(separator: ", "))): is it switched "
                        + "off? Name the output with --output"
                )
            }
            throw QueryFailure(
                message: "DRM shows several built-in panels (\(panelNames)) among the outputs of \(source): "
                    + "name the one to turn with --output"
            )
        }
        let builtIn = names.filter { name in
            ["edp", "lvds", "dsi"].contains { name.lowercased().hasPrefix($0) }
        }
        if builtIn.count == 1 { return builtIn[0] }
        if builtIn.isEmpty, names.count == 1 { return names[0] }
        if names.isEmpty { throw QueryFailure(message: "\(source) lists no active output") }
        throw QueryFailure(
            message: "cannot tell which output is the built-in panel among \(names.joined(separator: ", ")) "
                + "(from \(source)): name it with --output"
        )
    }
}
