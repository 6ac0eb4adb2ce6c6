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

package import Logging
import OrientProtocol
package import OrientationCore
import SensorDevices

/// The daemon's model of orientation between the sensors and the clients: each sample through the display's motion
/// (and the hinge), each change through the rotation policy, and the result as the events of PROTOCOL.md. It is made
/// of parts that each own their state (docs/architecture.md); its timers and next turns are its own
/// (``EngineScheduler``). Every entry point is one change, whose events are sent when it is done; a request's events
/// follow its reply (``answer(_:onError:send:)``). Only this file changes its parts.
package final class Engine {
    private(set) var settings: DaemonSettings
    let logger: Logger
    /// The events of each change, and `seq`.
    let publisher: EventPublisher
    private let output: any EngineOutput
    private let scheduler: any EngineScheduler
    private let sensorFactory: any SensorFactory
    /// The lock and the manual tablet mode as saved.
    let choices: SavedChoices
    private(set) var policy: RotationPolicy
    private(set) var motion: DeviceMotion
    private(set) var tablet: TabletModeState
    private(set) var axes: AxesWatch
    private(set) var generation = GenerationCounter()
    private var clientIDs = ClientIDs()
    private var suggestion = SuggestionTimer()
    private(set) var virtualSwitch: VirtualSwitchClaim
    /// The sensor's state as clients see it (PROTOCOL.md `sensor`).
    private(set) var sensorState = SensorState.stopped
    /// The display and base sensors, made once the engine exists (it takes their samples and is their delegate).
    private(set) lazy var sensors = SensorSet(
        factory: sensorFactory,
        options: settings.sensor,
        reports: SensorRecipients(samples: self, delegate: self)
    )

    /// Takes the settings, restores the saved choices, makes the sensors and looks for their accelerometers.
    /// - Throws: ``PolicyError`` when the policy settings allow nothing.
    package init(
        settings: DaemonSettings,
        store: StateStore,
        logger: Logger,
        output: any EngineOutput,
        scheduler: any EngineScheduler,
        sensorFactory: any SensorFactory
    ) throws(PolicyError) {
        self.settings = settings
        self.logger = logger
        self.output = output
        self.scheduler = scheduler
        self.sensorFactory = sensorFactory
        publisher = EventPublisher(output: output, logger: logger)
        motion = DeviceMotion(configuration: settings.classifier, tracksTilt: settings.sensorProxyCompat)
        tablet = TabletModeState(hinge: settings.hinge, logger: logger)
        axes = AxesWatch(logger: logger)
        policy = try RotationPolicy(settings: settings)
        virtualSwitch = VirtualSwitchClaim(client: clientIDs.next(), mode: settings.virtualTabletSwitch, logger: logger)
        choices = SavedChoices(store: store, logger: logger)
        choices.restore(into: &policy, &tablet, settings: settings)
        // Nobody is connected yet: what discovery finds changes the state, but sends nothing.
        sensors.refreshDiscovery()
    }

    /// A new client identity, unique across the control socket's connections and the bus clients.
    func newClientID() -> ClientID { clientIDs.next() }

    /// One sample of the display accelerometer: nothing but the hinge, the classifier and the pace (and the tilt,
    /// for the D-Bus service) unless the orientation changes. No allocation.
    package func handle(_ sample: Sample) {
        // The hinge first, so that a fold decided by this sample holds the interface before the classifier turns it.
        if let previous = tablet.hinge(display: sample) { tabletModeChanged(previous) }
        axes.check(sample, from: .display, laptopMode: tablet.tabletMode.map { !$0 })
        let change = motion.classify(sample)
        if change.orientation { asOneSentChange { record(policy.setDevice(motion.device)) } }
        // A change of state has reported the tilt with it already; then this finds nothing new to report.
        if change.tilt { output.tiltChanged(to: motion.tilt) }
        // Slow sampling while still, the full rate at the first sample that moves (`IdleRate=`); last, as a sensor
        // may replace its buffer.
        let pace = motion.pace(after: sample, before: change.before)
        if pace != sensors.pace { sensors.setPace(pace) }
    }

    /// One sample of the base accelerometer: the hinge only (no allocation). Readings far from 1 g are ignored
    /// (``TabletModeState/hinge(base:)``).
    func handleBase(_ sample: Sample) {
        guard case .usable(let decided) = tablet.hinge(base: sample) else { return }
        if let previous = decided { tabletModeChanged(previous) }
        axes.check(sample, from: .base, laptopMode: tablet.tabletMode.map { !$0 })
    }

    /// Sets or clears (nil) a client's constraint.
    /// - Throws: ``PolicyError`` when it would allow nothing; nothing changes then.
    func constrain(_ mask: InterfaceOrientationMask?, for client: ClientID) throws(PolicyError) {
        let change = try policy.setConstraint(mask, for: client)
        asOneSentChange { record(change) }
    }

    /// Sets the manual tablet mode (nil: `auto`, the switch or the hinge decides), saved first: when it cannot be
    /// saved nothing changes.
    /// - Throws: ``StateStoreError`` when the state file cannot be written.
    func setManualTabletMode(_ value: Bool?) throws(StateStoreError) {
        guard value != choices.tabletMode else { return }
        try choices.save(tabletMode: value)
        logger.info("manual tablet mode", metadata: ["tablet_mode": "\(value.map { $0 ? "on" : "off" } ?? "auto")"])
        tabletModeChanged(tablet.setManual(value))
    }

    /// Adds one to a client's count, starting the sensors when it is the first (they report their new status from
    /// inside: one change with the begin).
    func begin(_ client: ClientID) -> GenerationCounter.Update {
        asOneSentChange {
            let update = generation.begin(client)
            if update.transition == .started { sensors.start() }
            return update
        }
    }

    /// Takes one from a client's count, stopping the sensors when the total reaches 0.
    /// - Throws: ``NotGeneratingError`` when its count is 0; nothing changes then.
    func end(_ client: ClientID) throws(NotGeneratingError) -> GenerationCounter.Update {
        let update = try generation.end(client)
        if update.transition == .stopped { asOneSentChange { stopGenerating() } }
        return update
    }

    /// A connection closed, or a bus client released its claim or left the bus: its count and constraint go.
    /// During a send (a connection dropped for not reading) it waits until the send is over.
    func clientClosed(_ client: ClientID) {
        if publisher.deferClose(client) { return }
        asOneSentChange {
            if generation.remove(client) == .stopped { stopGenerating() }
            record(policy.removeClient(client))
        }
    }

    private func stopGenerating() {
        sensors.stop()
        tablet.stopHinge()
        updateSensorState(.stopped)
        // Nobody receives events now; the state (device unknown) is what `get` shows.
        publisher.discard()
        output.stateChanged(to: published)
    }

    /// At start: the switch's first position, then what the outputs show (a restored manual tablet mode may want the
    /// virtual switch).
    package func start(switchPosition: Bool?) {
        switchChanged(to: switchPosition)
        output.stateChanged(to: published)
    }

    /// The tablet-mode switch changed, appeared or went: tablet mode is decided anew, and the virtual switch's claim
    /// on the sensors follows.
    func switchChanged(to value: Bool?) {
        tabletModeChanged(tablet.setSwitch(value))
        refreshVirtualSwitchClaim()
        tablet.sayIfNothingTells(autoRotate: settings.autoRotate, baseAccelerometer: sensors.base.accelerometer != nil)
    }

    /// A change of tablet mode (`previous`: the mode before; nil, no change), as one change: a `tablet-mode` event,
    /// and the policy starts or stops following the device (an `interface` event when the interface moves with it).
    private func tabletModeChanged(_ previous: Bool??) {
        asOneSentChange {
            guard let previous else { return }
            publisher.note(.tabletMode, previous: .tabletMode(previous))
            record(policy.setFollowsDevice(settings.autoRotate.followsDevice(tabletMode: tablet.tabletMode)))
        }
    }

    /// Begins or ends the virtual switch's claim for the decision now (not from inside a change).
    private func refreshVirtualSwitchClaim() {
        switch virtualSwitch.refresh(tablet.decision) {
        case .begin: _ = begin(virtualSwitch.client)
        case .end: _ = try? end(virtualSwitch.client)
        case nil: return
        }
    }

    /// Ends the virtual switch's claim for good, at exit.
    package func releaseVirtualSwitchClaim() {
        if virtualSwitch.release() == .end { _ = try? end(virtualSwitch.client) }
    }

    /// Runs `body`, which may call out to the sensors (whose status reports come back in), as one change, and sends
    /// its events (unless a request holds them).
    func asOneSentChange<Result>(_ body: () -> Result) -> Result {
        let result = publisher.holding(body)
        flush()
        return result
    }

    func adopt(_ candidate: RotationPolicy) {
        let change = PolicyChangeSummary(from: policy, to: candidate)
        policy = candidate
        record(change)
    }

    private func record(_ change: PolicyChange) {
        record(PolicyChangeSummary(change))
    }

    /// Notes the change's events; a suggestion that appears, moves or goes sets or turns off its timer.
    private func record(_ change: PolicyChangeSummary) {
        guard publisher.note(change) else { return }
        let seconds = policy.suggestion == nil ? nil : Double(settings.suggestionSeconds)
        suggestion.arm(seconds, on: scheduler, logger: logger) { [unowned self] in self.suggestionTimedOut() }
    }

    /// The rotation suggestion's time ran out (`[Policy] SuggestionSec=`): it goes, and is not made again while the
    /// device stays in that pose.
    func suggestionTimedOut() {
        asOneSentChange { record(policy.declineSuggestion()) }
    }

    /// Sends the events of the changes made since the last send; connections closed during the send go afterwards.
    func flush() {
        for client in publisher.send({ published }, to: generation) { clientClosed(client) }
    }

    /// Takes a reloaded configuration, all or nothing, and sends the change as events: `allowed` for a new set,
    /// `interface` when the interface orientation or its rotation changes (a new `Natural=` turns the same
    /// interface orientation into another rotation). New sensor options replace the sensors (started if someone
    /// generates); a new `VirtualTabletSwitch=` applies to the claim at once.
    /// - Throws: ``PolicyError`` when `Supported=` would leave no orientation allowed with the lock
    ///   and constraints in force; nothing changes then.
    func reconfigure(_ new: DaemonSettings) throws(PolicyError) {
        let candidate = try policy.reconfigured(
            from: settings,
            to: new,
            followsDevice: new.autoRotate.followsDevice(tabletMode: tablet.tabletMode)
        )
        motion.reconfigure(new.classifier)
        tablet.reconfigure(hinge: new.hinge)
        let old = settings
        settings = new
        asOneSentChange { adopt(candidate) }
        if new.sensor.requiresNewSensor(comparedWith: old.sensor) {
            sensors.replace(options: new.sensor, running: generation.isGenerating)
            logger.info(
                "the sensor options changed",
                metadata: ["sensor": "\(generation.isGenerating ? "restarted" : "stopped, starts with them")"]
            )
        }
        virtualSwitch.policy.mode = new.virtualTabletSwitch
        refreshVirtualSwitchClaim()
        tablet.sayIfNothingTells(autoRotate: settings.autoRotate, baseAccelerometer: sensors.base.accelerometer != nil)
    }

    /// The sensor's state as clients see it becomes `status`'s; a sensor that stops capturing resets the
    /// classification (the device orientation is unknown until it returns).
    private func updateSensorState(_ status: SensorState) {
        let new = status == .stopped && sensors.display.accelerometer == nil ? SensorState.absent : status
        guard new != sensorState else { return }
        publisher.note(.sensor, previous: .name(sensorState.rawValue))
        sensorState = new
        if new != .active {
            motion.restart()
            record(policy.setDevice(.unknown))
        }
    }

    /// Whether the hinge counts (``SensorSet/baseCounts``); the virtual switch's claim follows at the next turn.
    private func refreshHasBase() {
        axes.baseEntryMayBeOldFrame(sensors.base.accelerometer?.oldFrameEntry != nil)
        guard tablet.setHasBase(sensors.baseCounts) else { return }
        virtualSwitch.refreshLater(on: scheduler) { [unowned self] in self.refreshVirtualSwitchClaim() }
    }

    /// The display sensor's new status, as clients see it (Engine+Sensors.swift).
    func displayStatusChanged(to status: SensorState) {
        asOneSentChange { updateSensorState(status) }
    }

    /// The base sensor's new status (nil: what it found changed): whether the hinge counts, and what it keeps
    /// (``TabletModeState/baseStatusChanged(to:)``).
    func baseChanged(status: SensorState?) {
        refreshHasBase()
        if let status {
            guard status != .active else { return }
            tablet.baseStatusChanged(to: status)
        } else if sensors.base.accelerometer == nil {
            tablet.forgetHinge()
        }
        tabletModeChanged(tablet.hingeCounts())
    }
}
