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
import OrientationCore

/// What `orientctl follow` does: each option from the command line, else from follow.conf, else its default, and
/// the backend they name.
struct FollowSettings {
    var backend: any DisplayBackend
    var panelOffset: PanelRotation
    var policy: FollowPolicy
    /// follow.conf's `[Apps]` rules.
    var apps: [AppRule]
    /// The backend's kind, which says where the focus comes from.
    var kind: BackendKind
    /// Whether rotation suggestions are shown as notifications (`--suggest`, `Suggest=`).
    var suggest: Bool

    /// The settings of the command line, follow.conf (read here, once) and the session.
    /// - Throws: a usage error when they do not name a backend, name one with options it does not take, or
    ///   follow.conf has a mistake.
    init(_ arguments: FollowArguments, environment: [String: String]) throws(ValidationError) {
        let file: FollowConfiguration
        do {
            file = try FollowConfiguration(path: FollowConfiguration.path(in: environment))
        } catch {
            throw ValidationError(error.message)
        }
        let degrees = arguments.panelOffset ?? file.panelOffset ?? 0
        guard let offset = PanelRotation(degrees: degrees) else {
            throw ValidationError(
                "--panel-offset must be 0, 90, 180 or 270 (degrees counter-clockwise), not \(degrees)"
            )
        }
        let seconds = arguments.timeout ?? file.timeoutSeconds ?? FollowOptions.defaultTimeoutSeconds
        guard FollowOptions.timeoutRange.contains(seconds) else {
            throw ValidationError("--timeout must be from 0.1 to 3600 seconds, not \(seconds)")
        }
        let policy = FollowPolicy(
            pauseExternal: arguments.pauseExternal ?? file.pauseExternal ?? false,
            naturalInLaptopMode: arguments.naturalInLaptopMode ?? file.naturalInLaptopMode ?? false,
            then: arguments.then ?? file.then,
            timeout: .milliseconds(Int64((seconds * 1000).rounded()))
        )
        let output = arguments.output ?? file.output
        let touch = arguments.touch.isEmpty ? file.touch : arguments.touch
        // The command line first: --backend, or --exec alone; then the file's; then the session.
        guard
            let kind = arguments.backend ?? (arguments.command != nil ? .exec : nil) ?? file.backend
                ?? (file.exec != nil ? .exec : nil) ?? BackendKind.detected(in: environment)
        else {
            throw ValidationError(
                """
                cannot tell which desktop to rotate: none of SWAYSOCK (sway), HYPRLAND_INSTANCE_SIGNATURE \
                (Hyprland), NIRI_SOCKET (niri), XDG_CURRENT_DESKTOP naming KDE or COSMIC, WAYLAND_DISPLAY \
                (wlr) or DISPLAY (X11) is set; GNOME rotates the screen itself (orientd's D-Bus \
                compatibility). Name it with --backend sway|hyprland|niri|kde|cosmic|wlr|x11|exec; in a \
                systemd user service, let the service see the session first ('systemctl --user \
                import-environment' in the compositor's startup)
                """
            )
        }
        let command = arguments.command ?? (kind == .exec ? file.exec : nil)
        if kind != .exec, command != nil {
            throw ValidationError("--exec runs your command instead of a backend: give --backend exec or no --backend")
        }
        if kind == .exec, output != nil || !touch.isEmpty {
            throw ValidationError(
                "--output and --touch are for the desktops' backends; the --exec command chooses its own"
            )
        }
        if ![.sway, .x11, .exec].contains(kind), !touch.isEmpty {
            let reason =
                switch kind {
                case .hyprland: "Hyprland turns every touch device and tablet with input:touchdevice and input:tablet"
                case .kde: "Plasma turns touch screens and pens with the output itself"
                default: "map touch screens and pens to the output in \(kind.rawValue)'s own settings"
                }
            throw ValidationError("--touch is for sway and x11: \(reason)")
        }
        backend = try kind.backend(output: output, touch: touch, command: command, panelOffset: offset)
        panelOffset = offset
        self.policy = policy
        apps = file.apps
        self.kind = kind
        suggest = arguments.suggest ?? file.suggest ?? false
    }
}
