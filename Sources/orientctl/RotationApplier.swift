import FoundationEssentials
import OrientClient
import OrientProtocol
import OrientationCore

/// Applies interface orientations through a backend: each new one once, a failed one again after a
/// reconnection; reports what it applied on standard output and what failed on standard error.
struct RotationApplier {
    /// What makes `follow` look at the state.
    enum Trigger: Sendable {
        /// An event's state.
        case state(OrientationState)
        /// orientd is back after going away.
        case reconnected
    }

    let backend: any DisplayBackend
    let panelOffset: PanelRotation
    let json: Bool
    let dryRun: Bool

    /// The interface orientation last tried.
    private var attempted: InterfaceOrientation?
    /// The interface orientation last applied completely.
    private var applied: InterfaceOrientation?

    init(backend: any DisplayBackend, panelOffset: PanelRotation, json: Bool, dryRun: Bool) {
        self.backend = backend
        self.panelOffset = panelOffset
        self.json = json
        self.dryRun = dryRun
    }

    /// Applies `state` if its interface orientation is known and new, or, with `again`, not yet applied
    /// (the start, a reconnection).
    mutating func consider(_ state: OrientationState, again: Bool) async {
        guard state.interface != .unknown, let rotation = state.rotation else { return }
        guard state.interface != attempted || (again && state.interface != applied) else { return }
        attempted = state.interface
        if await apply(state, rotation: rotation.adding(panelOffset)) {
            applied = state.interface
        }
    }

    /// Runs (or, dry, prints) the backend's commands; true when all of them worked.
    private func apply(_ state: OrientationState, rotation: PanelRotation) async -> Bool {
        let plan = await backend.plan(for: state, rotation: rotation)
        var failures = plan.failures
        if dryRun {
            StandardStreams.output(state.orientationLine)
            for command in plan.commands { StandardStreams.output(command.shellText) }
        } else {
            for command in plan.commands {
                let outcome = await command.run()
                if !outcome.succeeded { failures.append(outcome.failureText) }
            }
        }
        for failure in failures {
            StandardStreams.error(
                "orientctl: cannot apply interface=\(state.interface.wireName) rotation=\(rotation.degrees): "
                    + "\(failure); trying again at the next change"
            )
        }
        guard failures.isEmpty else { return false }
        if !dryRun { print(state) }
        return true
    }

    private func print(_ state: OrientationState) {
        guard json else { return StandardStreams.output(state.orientationLine) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if let text = try? encoder.encode(state) {
            StandardStreams.output(json: Array(text))
        } else {
            StandardStreams.output(state.orientationLine)
        }
    }
}
