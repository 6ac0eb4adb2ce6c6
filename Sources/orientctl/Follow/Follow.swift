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
import FoundationEssentials
import OrientClient
import OrientProtocol
import OrientationCore

/// `orientctl follow`: applies each interface orientation to the display and its touch and pen input.
struct Follow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rotate the display, touch screen and pen with each interface orientation, until interrupted.",
        discussion: """
            Starts the sensor (begin) and applies the current interface orientation, then each change, \
            printing 'device=D interface=I rotation=R' per change applied (with --json: the state object). \
            Nothing is applied while the interface orientation is unknown. A command that fails is reported \
            on standard error (the command, its exit status and what it said) and tried again at the next \
            change; when orientd restarts, follow reconnects and applies its state. SIGINT or SIGTERM end it \
            with status 0; it ends with status 3 only if orientd cannot be reached at the start.

            The backend is --backend, else the session's: sway when SWAYSOCK is set, hyprland when \
            HYPRLAND_INSTANCE_SIGNATURE is, niri when NIRI_SOCKET is, kde when XDG_CURRENT_DESKTOP names KDE, \
            cosmic when it names COSMIC, wlr in any other Wayland session but GNOME's (WAYLAND_DISPLAY), x11 when \
            DISPLAY is set without WAYLAND_DISPLAY. The output is --output, else the built-in panel: the \
            connected eDP, DSI or LVDS connector of /sys/class/drm under the compositor's name for it; without \
            DRM, the output named eDP*, LVDS* or DSI*, else the only one.

            sway: 'swaymsg output NAME transform T', then 'swaymsg input type:touch map_to_output NAME' and \
            'swaymsg input type:tablet_tool map_to_output NAME' (or one per --touch identifier).

            hyprland: one 'hyprctl --batch' of 'keyword monitor NAME,MODE,POSITION,SCALE,transform,N' (the \
            mode, position and scale kept from 'hyprctl monitors -j'), 'keyword input:touchdevice:transform \
            N' and 'keyword input:tablet:transform N'.

            niri: 'niri msg output NAME transform normal|90|180|270'. wlr (river, labwc, Wayfire and any \
            compositor with wlr-output-management): 'wlr-randr --output NAME --transform normal|90|180|270'. \
            kde: 'kscreen-doctor output.NAME.rotation.none|left|inverted|right' (Plasma turns touch and pen \
            itself). cosmic: 'cosmic-randr mode --transform normal|rotate90|rotate180|rotate270 --refresh HZ \
            NAME WIDTH HEIGHT', the current mode kept from 'cosmic-randr list --kdl'.

            x11: 'xrandr --output NAME --rotate R', then 'xinput set-prop DEVICE "Coordinate Transformation \
            Matrix" …' for each touch screen, pen, eraser and pad of 'xinput list --long' (udev says which \
            sit on the panel), or each --touch device.

            exec: 'sh -c CMD' (--exec CMD) with the variables of 'orientctl watch --exec'.

            --pause-external applies nothing while /sys/class/drm shows an external monitor connected and \
            applies the latest orientation when none is (checked every 2 s). --natural-in-laptop-mode holds \
            rotation 0 while orientd says the convertible is out of tablet mode. --then CMD runs 'sh -c CMD' \
            after each rotation applied, with the variables of 'orientctl watch --exec'. A command that runs \
            longer than --timeout is killed and reported like a failure.

            Defaults for every option come from ~/.config/orientd/follow.conf (under $XDG_CONFIG_HOME when \
            set): a [Follow] section with Backend=, Output=, Touch= (one device per line), PanelOffset=, \
            PauseExternal=yes|no, NaturalInLaptopMode=yes|no, Suggest=yes|no, Then=, Exec=, TimeoutSec=.

            Apps choose their orientations: an [Apps] section of follow.conf maps an app to a mask \
            (mpv=landscape, org.pwmt.zathura=portrait, steam_app_*=landscape-right: a glob of the Wayland \
            app_id, Hyprland's class or X11's WM_CLASS). While a ruled app has the focus, follow holds its \
            mask as its constraint on orientd, and releases it when the focus leaves; while a lock is in force, \
            the rules rest. The focus comes from sway's IPC events, Hyprland's event socket, niri's event \
            stream and X11's _NET_ACTIVE_WINDOW (xprop -spy); with kde, cosmic, wlr and exec the rules do not \
            apply, and follow says so once. On KDE Plasma and GNOME, orientd's KWin script and Shell extension \
            apply them (see kwin-focus).

            --suggest (or Suggest=yes in follow.conf) also shows orientd's rotation suggestions as desktop \
            notifications with a Rotate action, as 'orientctl suggest' does: while rotation is locked and the \
            device is turned, choosing Rotate locks the orientation it is held in, and follow turns the display.

            --panel-offset is for a panel whose scan-out is turned from the device's natural orientation \
            (a portrait-native panel in a landscape tablet or laptop): the counter-clockwise rotation, in \
            degrees, that makes the picture upright in the normal pose, added to every rotation. A panel \
            that sway shows upright with 'transform 90' (sway counts clockwise) needs --panel-offset 270. \
            --dry-run prints the commands for each change instead of running them: a way to try offsets.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(help: ArgumentHelp("The desktop to rotate (default: from the session's variables).", valueName: "backend"))
    var backend: BackendKind?

    @Option(help: ArgumentHelp("The output to rotate (default: the built-in panel).", valueName: "name"))
    var output: String?

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp(
            "The touch and pen devices to turn: sway input identifiers, xinput names or ids (default: found).",
            valueName: "device"
        )
    )
    var touch: [String] = []

    @Option(
        name: .customLong("panel-offset"),
        help: ArgumentHelp(
            "Degrees counter-clockwise added to every rotation: 0, 90, 180 or 270 (default: 0).",
            valueName: "degrees"
        )
    )
    var panelOffset: Int?

    @Flag(name: .customLong("dry-run"), help: "Print the commands for each change instead of running them.")
    var dryRun = false

    @Option(
        name: .customLong("exec"),
        help: ArgumentHelp("With --backend exec: run 'sh -c CMD' for each change.", valueName: "CMD")
    )
    var command: String?

    @Flag(
        name: .customLong("pause-external"),
        inversion: .prefixedNo,
        help: "Rotate nothing while an external monitor is connected (default: no)."
    )
    var pauseExternal: Bool?

    @Flag(
        name: .customLong("natural-in-laptop-mode"),
        inversion: .prefixedNo,
        help: "Hold the natural orientation while the convertible is out of tablet mode (default: no)."
    )
    var naturalInLaptopMode: Bool?

    @Flag(
        name: .customLong("suggest"),
        inversion: .prefixedNo,
        help: "Show rotation suggestions as notifications with a Rotate action, as 'orientctl suggest' (default: no)."
    )
    var suggest: Bool?

    @Option(
        name: .customLong("then"),
        help: ArgumentHelp("Run 'sh -c CMD' after each rotation applied.", valueName: "CMD")
    )
    var then: String?

    @Option(
        help: ArgumentHelp(
            "Seconds a command may run before it is killed and reported (default: 10).",
            valueName: "seconds"
        )
    )
    var timeout: Double?

    func validate() throws {
        _ = try settings()
        if dryRun, global.json {
            throw ValidationError("--dry-run prints commands as text: leave out --json")
        }
    }

    /// The options, each from the command line, else from follow.conf, else its default.
    struct Settings {
        var backend: any DisplayBackend
        var panelOffset: PanelRotation
        var policy: FollowPolicy
        /// follow.conf's `[Apps]` rules.
        var apps: [AppRule] = []
        /// The backend's kind, which says where the focus comes from.
        var kind: BackendKind = .exec
        /// Whether rotation suggestions are shown as notifications (`--suggest`, `Suggest=`).
        var suggest = false
    }

    /// The backend and policies of the options, follow.conf and the session.
    /// - Throws: a usage error when they do not name a backend, name one with options it does not take, or
    ///   follow.conf has a mistake.
    func settings() throws(ValidationError) -> Settings {
        let environment = ProcessInfo.processInfo.environment
        let file: FollowConfiguration
        do {
            file = try FollowConfiguration(path: FollowConfiguration.path(in: environment))
        } catch {
            throw ValidationError(error.message)
        }
        let degrees = panelOffset ?? file.panelOffset ?? 0
        guard let offset = PanelRotation(degrees: degrees) else {
            throw ValidationError(
                "--panel-offset must be 0, 90, 180 or 270 (degrees counter-clockwise), not \(degrees)"
            )
        }
        let seconds = timeout ?? file.timeoutSeconds ?? FollowOptions.defaultTimeoutSeconds
        guard FollowOptions.timeoutRange.contains(seconds) else {
            throw ValidationError("--timeout must be from 0.1 to 3600 seconds, not \(seconds)")
        }
        let policy = FollowPolicy(
            pauseExternal: pauseExternal ?? file.pauseExternal ?? false,
            naturalInLaptopMode: naturalInLaptopMode ?? file.naturalInLaptopMode ?? false,
            then: then ?? file.then,
            timeout: .milliseconds(Int64((seconds * 1000).rounded()))
        )
        let output = output ?? file.output
        let touch = touch.isEmpty ? file.touch : touch
        // The command line first: --backend, or --exec alone; then the file's; then the session.
        guard
            let kind = backend ?? (command != nil ? .exec : nil) ?? file.backend ?? (file.exec != nil ? .exec : nil)
                ?? BackendKind.detected(in: environment)
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
        let command = command ?? (kind == .exec ? file.exec : nil)
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
        let backend: any DisplayBackend
        switch kind {
        case .sway: backend = SwayBackend(output: output, touch: touch)
        case .hyprland: backend = HyprlandBackend(output: output)
        case .niri: backend = NiriBackend(output: output)
        case .kde: backend = KDEBackend(output: output)
        case .cosmic: backend = CosmicBackend(output: output)
        case .wlr: backend = WlrBackend(output: output)
        case .x11: backend = X11Backend(output: output, touch: touch)
        case .exec:
            guard let command else { throw ValidationError("--backend exec needs the command: --exec CMD") }
            backend = ExecBackend(command: command, panelOffset: offset)
        }
        return Settings(
            backend: backend,
            panelOffset: offset,
            policy: policy,
            apps: file.apps,
            kind: kind,
            suggest: suggest ?? file.suggest ?? false
        )
    }

    func run() async throws {
        let signals = TerminationSignals.catching()
        let settings = try settings()
        let (json, dryRun) = (global.json, dryRun)
        // The events and the reconnections, in one stream that one loop applies in order.
        let connection = try await FollowedConnection(socketPath: global.socketPath)
        let (client, begun) = (connection.client, connection.begun)
        let (triggers, sink) = (connection.triggers, connection.sink)
        // With --pause-external: a look at the connectors every 2 s (sysfs has no change notification).
        let displays = Task {
            guard settings.policy.pauseExternal else { return }
            var externals = DRMConnectors().externalMonitors
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(2))
                let now = DRMConnectors().externalMonitors
                if now != externals { sink.yield(.displaysChanged) }
                externals = now
            }
        }
        // With [Apps] rules: the compositor's focus changes, as it tells them.
        let focus = Task {
            guard !settings.apps.isEmpty else { return }
            guard let source = FocusSources.source(for: settings.kind, environment: ProcessInfo.processInfo.environment)
            else {
                StandardStreams.error(
                    "orientctl: the [Apps] rules of follow.conf do not apply with --backend \(settings.kind.rawValue): "
                        + FocusSources.unsupportedReason(settings.kind)
                )
                return
            }
            do throws(QueryFailure) {
                try await source.watch { app in sink.yield(.focus(app)) }
            } catch {
                StandardStreams.error("orientctl: the [Apps] rules stop applying: \(error.message)")
                sink.yield(.focus(nil))
            }
        }
        // With --suggest: the notification server's signals.
        var notifications: Task<Void, Never>?
        if settings.suggest {
            do {
                notifications = try SuggestionDriver.watch { sink.yield(.notification($0)) }
            } catch {
                StandardStreams.error("orientctl: rotation suggestions are not shown: \(error.message)")
            }
        }
        let suggests = notifications != nil
        try await TerminationSignals.runUntilSignalled(signals) {
            var suggestions = suggests ? SuggestionDriver(client: client, json: json) : nil
            var apps = AppConstraint(rules: settings.apps, dryRun: dryRun)
            var applier = RotationApplier(
                backend: settings.backend,
                panelOffset: settings.panelOffset,
                json: json,
                dryRun: dryRun,
                policy: settings.policy
            )
            await apps.state(begun.state, on: client)
            await applier.consider(begun.state, again: true)
            await suggestions?.state(begun.state)
            for await trigger in triggers {
                switch trigger {
                case .state(let state):
                    await apps.state(state, on: client)
                    await applier.consider(state, again: false)
                    await suggestions?.state(state)
                case .notification(let signal?):
                    await suggestions?.signal(signal)
                case .notification(nil):
                    let failure =
                        suggestions?.isReady == true ? SuggestionDriver.monitorEnded : SuggestionDriver.noSessionBus
                    StandardStreams.error("orientctl: rotation suggestions are not shown: \(failure.message)")
                    suggestions = nil
                case .focus(let app):
                    await apps.focus(app, on: client)
                case .reconnected:
                    // The daemon's state after the restart: a lock may have set the orientation without an event.
                    if let state = try? await client.get() {
                        await applier.consider(state, again: true)
                        await suggestions?.state(state)
                    }
                case .displaysChanged:
                    await applier.displaysChanged()
                }
            }
        }
        displays.cancel()
        focus.cancel()
        notifications?.cancel()
        // The monitor's busctl is ended and reaped by then.
        await notifications?.value
        await connection.close()
    }
}
