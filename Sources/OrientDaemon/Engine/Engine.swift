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

import IIOSensor
package import Logging
import OrientProtocol
package import OrientationCore

/// The daemon's model of orientation between the sensors and the clients: each sample through the classifier
/// (and the hinge), each change through the rotation policy, and the result as the events of PROTOCOL.md.
///
/// Its neighbours are given to it when it is made, and each job that is not the sample's path has its own owner:
/// the ``EventPublisher`` sends the events of each change to the ``EngineOutput``; the ``SensorSet`` (made here,
/// with the engine as the sink of the sensors' samples and their delegate: `Engine+Sensors.swift`) starts, stops
/// and paces the sensors;
/// ``SavedChoices`` keeps the lock and the manual tablet mode on disk; ``TabletModeArbiter`` decides tablet mode.
/// Every entry point is one change, whose events are sent when it is done; a request's events follow its reply
/// (``answer(_:onError:send:)``).
package final class Engine {
    var settings: DaemonSettings
    let logger: Logger
    var classifier: OrientationClassifier
    var policy: RotationPolicy
    var generation = GenerationCounter()
    let publisher: EventPublisher
    let output: any EngineOutput
    var choices: SavedChoices
    /// Tablet mode from the manual setting, the switch and the hinge.
    var arbiter = TabletModeArbiter()
    /// The hinge between the display and the base accelerometer; its decision counts while ``hasBase``.
    var hinge: HingeMonitor
    /// Whether there is a working base accelerometer whose hinge counts (kept for the hot path).
    var hasBase = false
    /// The self-check of the accelerometers' axes, fed every usable sample.
    var axes = AxesCheck()
    /// The accelerometers whose matrix was said in the journal to be impossible (each said once).
    var matrixProblemsSaid: Set<String> = []
    /// What it found, said once in the journal and kept for `status`.
    package private(set) var axesFindings: [AxesCheck.Finding] = []
    /// The sensor's state as clients see it (PROTOCOL.md `sensor`).
    var sensorState = SensorState.stopped
    private var clientIDs = ClientIDs()
    var tiltTracker = TiltTracker()
    var paceTracker = PaceTracker()
    /// The base sensor's sample times on the display's clock, for the hinge.
    let clocks = SensorClocks()
    /// The acceleration of each sensor's last sample (after its matrix, unfiltered), for `status` to show what the
    /// sensor read (``reading(at:)``); nil before the first sample of a capture.
    var lastAcceleration: (display: Vector3?, base: Vector3?) = (nil, nil)
    private let sensorFactory: any SensorFactory
    /// The display and base sensors, made once the engine exists (it takes their samples and is their delegate).
    private(set) lazy var sensors = SensorSet(
        factory: sensorFactory,
        options: settings.sensor,
        reports: SensorReports(samples: self, delegate: self)
    )
    /// Whether the tilt is followed (per sample); only the D-Bus service reports it (`[DBus] Compat=yes`).
    package var tracksTilt = false

    /// Takes the policy settings, restores the saved choices (a lock that no longer intersects `Supported=` is
    /// dropped, and the file rewritten), makes the sensors through `sensorFactory` and looks for their accelerometers.
    /// - Throws: ``PolicyError`` when the policy settings allow nothing.
    package init(
        settings: DaemonSettings,
        store: StateStore,
        logger: Logger,
        output: any EngineOutput,
        sensorFactory: any SensorFactory
    ) throws(PolicyError) {
        self.settings = settings
        self.logger = logger
        self.output = output
        self.sensorFactory = sensorFactory
        tracksTilt = settings.sensorProxyCompat
        publisher = EventPublisher(output: output, logger: logger)
        classifier = OrientationClassifier(configuration: settings.classifier)
        hinge = HingeMonitor(configuration: settings.hinge)
        policy = try RotationPolicy(
            natural: settings.classifier.natural,
            supported: settings.supported,
            preferred: settings.preferred
        )
        _ = policy.setSuggests(settings.suggestionSeconds > 0)
        choices = SavedChoices(store: store, logger: logger)
        if let mode = choices.tabletMode {
            _ = arbiter.setManual(mode)
            _ = policy.setFollowsDevice(Self.followsDevice(settings.autoRotate, tabletMode: mode))
            logger.info("manual tablet mode restored", metadata: ["tablet_mode": "\(mode ? "on" : "off")"])
        }
        if let lock = choices.lock {
            do {
                _ = try policy.setLock(lock)
                logger.info("lock restored", metadata: ["lock": "\(lock)"])
            } catch {
                logger.warning(
                    "the saved lock no longer intersects Supported=: dropped",
                    metadata: ["lock": "\(lock)", "supported": "\(settings.supported)"]
                )
                try? choices.save(lock: nil)
            }
        }
        // Nobody is connected yet: what discovery finds changes the state, but sends nothing.
        sensors.refreshDiscovery()
    }

    /// The state as clients see it.
    var state: OrientationState {
        OrientationState(
            device: generation.isGenerating ? policy.device : .unknown,
            interface: policy.interface,
            rotation: policy.rotation,
            allowed: policy.allowed,
            lock: policy.lock,
            sensor: sensorState,
            generating: generation.isGenerating,
            seq: publisher.seq,
            tabletMode: arbiter.tabletMode,
            tabletModeSource: arbiter.source,
            hinge: hinge.angle.map { ($0 * 10).rounded() / 10 },
            suggestion: policy.suggestion
        )
    }

    /// What the outputs show now: the state, the accelerometer as iio-sensor-proxy shows it, tablet mode.
    var published: PublishedState {
        PublishedState(
            state: state,
            hasAccelerometer: hasAccelerometer,
            natural: natural,
            tilt: tilt,
            tabletMode: tabletModeDecision
        )
    }

    /// Tablet mode as decided, with whether a real switch is present and whether the hinge counts.
    var tabletModeDecision: TabletModeDecision {
        TabletModeDecision(
            tabletMode: arbiter.tabletMode,
            source: arbiter.source,
            realSwitch: arbiter.switchPosition != nil,
            hinge: hasBase
        )
    }

    /// Connections, bus clients and the daemon's own claims (the virtual tablet-mode switch) whose count is above
    /// zero.
    var generatingConnections: Int { generation.counts.count }
    /// The sum of all counts.
    var generationTotal: Int { generation.total }
    /// Whether anyone generates: whether the sensors run.
    var isGenerating: Bool { generation.isGenerating }
    /// Whether this connection receives events.
    func isGenerating(_ client: ClientID) -> Bool { generation.count(for: client) > 0 }
    /// Whether there is a display accelerometer to read (iio-sensor-proxy's `HasAccelerometer`).
    var hasAccelerometer: Bool { sensorState != .absent && sensors.display.accelerometer != nil }
    /// The panel's natural orientation in force.
    var natural: NaturalOrientation { policy.natural }
    /// Whether the interface follows the device orientation now (`AutoRotate=` and tablet mode).
    var followsDevice: Bool { policy.followsDevice }
    /// The tilt of the device (iio-sensor-proxy's `AccelerometerTilt`); undefined unless ``tracksTilt``.
    var tilt: DeviceTilt { tiltTracker.tilt }

    /// A new client identity, unique across the control socket's connections and the bus clients.
    func newClientID() -> ClientID { clientIDs.next() }

    // MARK: Samples (the hot path)

    /// One sample of the display accelerometer: nothing but the hinge, the classifier and the pace (and the tilt,
    /// for the D-Bus service) unless the orientation changes. No allocation.
    package func handle(_ sample: Sample) {
        // The hinge first, so that a fold decided by this sample holds the interface before the classifier turns it.
        if hasBase, hinge.update(sample, from: .display) { hingeDecided() }
        checkAxes(sample, from: .display)
        let before = classifier.filteredAcceleration
        let changed = classifier.update(sample)
        let tiltChanged =
            tracksTilt
            && tiltTracker.update(acceleration: classifier.filteredAcceleration, device: classifier.deviceOrientation)
        if changed { asOneSentChange { record(policy.setDevice(classifier.deviceOrientation)) } }
        // A change of state has reported the tilt with it already; then this finds nothing new to report.
        if tiltChanged { output.tiltChanged(to: tiltTracker.tilt) }
        // Slow sampling while still, the full rate at the first sample that moves (`IdleRate=`); last, as a sensor
        // may replace its buffer.
        let pace = paceTracker.pace(after: sample, before: before, classifier: classifier)
        if pace != sensors.pace { sensors.setPace(pace) }
    }

    /// One sample of the base accelerometer: the hinge only (no allocation). Readings far from 1 g are ignored, and
    /// said once when they last (``TabletModeArbiter/judgeBase(magnitude:at:)``).
    func handleBase(_ sample: Sample) {
        switch arbiter.judgeBase(magnitude: sample.acceleration.magnitude / HingeMonitor.gravity, at: sample.time) {
        case .usable:
            if hinge.update(sample, from: .base) { hingeDecided() }
            checkAxes(sample, from: .base)
        case .ignored:
            return
        case .ignoredAndSayOnce:
            logger.warning(
                "the base accelerometer reads implausible values: ignored, the hinge angle is unknown",
                metadata: ["magnitude": "\(sample.acceleration.magnitude) m/s²"]
            )
        }
    }

    /// The axes' self-check (no allocation until it finds something, once per sensor and kind).
    private func checkAxes(_ sample: Sample, from sensor: CalibratedSensor) {
        axes.laptopMode = arbiter.tabletMode.map { !$0 }
        axes.update(sample, from: sensor)
        guard axes.hasFindings else { return }
        for finding in axes.takeFindings() {
            axesFindings.append(finding)
            logger.warning(
                "the accelerometer's axes cannot be right",
                metadata: [
                    "sensor": "\(finding.sensor.rawValue)", "finding": "\(finding.text)",
                    "suggested": "\(finding.suggested.map { "\($0)" } ?? "none")",
                ]
            )
        }
    }

    // MARK: Policy

    /// Why a lock change did not happen; nothing changed.
    enum LockChangeError: Error {
        /// The policy refuses it.
        case refused(PolicyError)
        /// The new lock could not be saved.
        case notSaved(StateStoreError)
    }

    /// Applies a lock change on a copy, saves it, and only then makes it the policy.
    func changeLock(_ edit: (inout RotationPolicy) throws(PolicyError) -> Void) throws(LockChangeError) {
        var candidate = policy
        do {
            try edit(&candidate)
        } catch {
            throw .refused(error)
        }
        if candidate.lock != policy.lock {
            do {
                try choices.save(lock: candidate.lock)
            } catch {
                throw .notSaved(error)
            }
        }
        asOneSentChange { adopt(candidate) }
    }

    /// Sets or clears (nil) a client's constraint.
    /// - Throws: ``PolicyError`` when it would allow nothing; nothing changes then.
    func constrain(_ mask: InterfaceOrientationMask?, for client: ClientID) throws(PolicyError) {
        let change = try policy.setConstraint(mask, for: client)
        asOneSentChange { record(change) }
    }

    // MARK: Events

    /// Answers one request: `body` makes its change and its reply line (`onError` the reply when it throws, and
    /// nothing it changed is sent); `send` sends the reply, and only then do the change's events go out.
    func answer<Failure: Error>(
        _ body: () throws(Failure) -> [UInt8],
        onError: (Failure) -> [UInt8],
        send: ([UInt8]) -> Void
    ) {
        let reply: [UInt8]
        do {
            reply = try publisher.holding(body)
        } catch {
            reply = onError(error)
        }
        send(reply)
        flush()
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

    func record(_ change: PolicyChange) {
        record(PolicyChangeSummary(change))
    }

    private func record(_ change: PolicyChangeSummary) {
        if change.allowedOrLock { publisher.note(.allowed) }
        if let previous = change.previousDevice { publisher.note(.device, previous: .name(previous.wireName)) }
        if let previous = change.previousInterface { publisher.note(.interface, previous: .name(previous.wireName)) }
        if let previous = change.previousSuggestion {
            publisher.note(.suggestion, previous: previous.map { .name($0.wireName) } ?? .none)
            output.suggestionStands(for: policy.suggestion == nil ? nil : Double(settings.suggestionSeconds))
        }
    }

    /// The rotation suggestion's time ran out (`[Policy] SuggestionSec=`): it goes, and is not made again while the
    /// device stays in that pose.
    func suggestionTimedOut() {
        asOneSentChange { record(policy.declineSuggestion()) }
    }

    /// Sends the events of the changes made since the last send; connections closed during the send go afterwards.
    private func flush() {
        for client in publisher.send({ published }, to: generation) { clientClosed(client) }
    }

    // MARK: The sensor's state

    /// The sensor's state as clients see it becomes `status`'s; a sensor that stops capturing resets the
    /// classification (the device orientation is unknown until it returns).
    func updateSensorState(_ status: SensorState) {
        let new = status == .stopped && sensors.display.accelerometer == nil ? SensorState.absent : status
        guard new != sensorState else { return }
        publisher.note(.sensor, previous: .name(sensorState.rawValue))
        sensorState = new
        if new != .active {
            classifier = OrientationClassifier(configuration: settings.classifier)
            _ = tiltTracker.reset()
            paceTracker.reset()
            record(policy.setDevice(.unknown))
        }
    }
}
