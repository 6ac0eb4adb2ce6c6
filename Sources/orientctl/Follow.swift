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
            HYPRLAND_INSTANCE_SIGNATURE is, x11 when DISPLAY is and WAYLAND_DISPLAY is not. The output is \
            --output, else the built-in panel: the one named eDP*, LVDS* or DSI*, else the only one.

            sway: 'swaymsg output NAME transform T', then 'swaymsg input ID map_to_output NAME' for each \
            touch and tablet_tool input of 'swaymsg -t get_inputs' (or each --touch identifier).

            hyprland: one 'hyprctl --batch' of 'keyword monitor NAME,MODE,POSITION,SCALE,transform,N' (the \
            mode, position and scale kept from 'hyprctl monitors -j'), 'keyword input:touchdevice:transform \
            N' and 'keyword input:tablet:transform N'.

            x11: 'xrandr --output NAME --rotate R', then 'xinput set-prop DEVICE "Coordinate Transformation \
            Matrix" …' for each touch screen and pen of 'xinput list --long' (or each --touch device).

            exec: 'sh -c CMD' (--exec CMD) with the variables of 'orientctl watch --exec'.

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
            "Degrees counter-clockwise added to every rotation: 0, 90, 180 or 270.",
            valueName: "degrees"
        )
    )
    var panelOffset = 0

    @Flag(name: .customLong("dry-run"), help: "Print the commands for each change instead of running them.")
    var dryRun = false

    @Option(
        name: .customLong("exec"),
        help: ArgumentHelp("With --backend exec: run 'sh -c CMD' for each change.", valueName: "CMD")
    )
    var command: String?

    func validate() throws {
        _ = try makeBackend()
        if dryRun, global.json {
            throw ValidationError("--dry-run prints commands as text: leave out --json")
        }
    }

    /// The backend of the options and the session.
    /// - Throws: a usage error when they do not name one, or name one with options it does not take.
    func makeBackend() throws(ValidationError) -> any DisplayBackend {
        guard let offset = PanelRotation(degrees: panelOffset) else {
            throw ValidationError(
                "--panel-offset must be 0, 90, 180 or 270 (degrees counter-clockwise), not \(panelOffset)"
            )
        }
        let environment = ProcessInfo.processInfo.environment
        guard let kind = backend ?? (command != nil ? .exec : BackendKind.detected(in: environment)) else {
            throw ValidationError(
                """
                cannot tell which desktop to rotate: none of SWAYSOCK (sway), HYPRLAND_INSTANCE_SIGNATURE \
                (Hyprland) or DISPLAY without WAYLAND_DISPLAY (X11) is set. Name it with --backend \
                sway|hyprland|x11|exec; in a systemd user service, let the service see the session first \
                ('systemctl --user import-environment' in the compositor's startup)
                """
            )
        }
        if kind != .exec, command != nil {
            throw ValidationError("--exec runs your command instead of a backend: give --backend exec or no --backend")
        }
        if kind == .exec, output != nil || !touch.isEmpty {
            throw ValidationError(
                "--output and --touch are for sway, hyprland and x11; the --exec command chooses its own"
            )
        }
        if kind == .hyprland, !touch.isEmpty {
            throw ValidationError(
                "--touch is for sway and x11: Hyprland turns every touch device and tablet with input:touchdevice and input:tablet"
            )
        }
        switch kind {
        case .sway:
            return SwayBackend(output: output, touch: touch)
        case .hyprland:
            return HyprlandBackend(output: output)
        case .x11:
            return X11Backend(output: output, touch: touch)
        case .exec:
            guard let command else { throw ValidationError("--backend exec needs the command: --exec CMD") }
            return ExecBackend(command: command, panelOffset: offset)
        }
    }

    func run() async throws {
        let signals = TerminationSignals.catching()
        let backend = try makeBackend()
        let (panelOffset, json, dryRun) = (PanelRotation(degrees: panelOffset) ?? .degrees0, global.json, dryRun)
        let client = OrientClient(socketPath: global.socketPath)
        let begun: BeginResult
        do {
            begun = try await client.begin()
        } catch {
            await client.close()
            throw CommandFailure(error)
        }
        let (triggers, sink) = AsyncStream.makeStream(of: RotationApplier.Trigger.self)
        let socketPath = global.socketPath
        // The events and the reconnections, in one stream that one loop applies in order.
        let events = Task {
            for await event in client.events { sink.yield(.state(event.state)) }
        }
        let reconnections = Task {
            var lost = false
            for await connectionState in client.connectionStates {
                switch connectionState {
                case .reconnecting(attempt: 1):
                    lost = true
                    StandardStreams.error("orientctl: orientd went away; reconnecting to \(socketPath)")
                case .connected where lost:
                    lost = false
                    StandardStreams.error("orientctl: reconnected to orientd")
                    sink.yield(.reconnected)
                default:
                    break
                }
            }
        }
        try await TerminationSignals.runUntilSignalled(signals) {
            var applier = RotationApplier(backend: backend, panelOffset: panelOffset, json: json, dryRun: dryRun)
            await applier.consider(begun.state, again: true)
            for await trigger in triggers {
                switch trigger {
                case .state(let state):
                    await applier.consider(state, again: false)
                case .reconnected:
                    // The daemon's state after the restart: a lock may have set the orientation without an event.
                    if let state = try? await client.get() { await applier.consider(state, again: true) }
                }
            }
        }
        events.cancel()
        reconnections.cancel()
        sink.finish()
        await client.close()
    }
}
