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

/// The daemon's model of orientation between the sensor and its clients: classifies samples, applies the
/// rotation policy, counts generation (starting and stopping the sensors), keeps the lock on disk, decides tablet
/// mode (a manual setting, else the tablet-mode switch, else the hinge between two accelerometers), follows a
/// reloaded configuration, and turns every change into the events of PROTOCOL.md
/// through its ``EventBatch``. It does no I/O on the socket itself: ``broadcast`` sends an event line to the
/// generating connections, and ``ControlRequests`` answers requests with it.
///
/// Each entry point sends the events of its change when it is done, unless a request is being answered
/// (``asOneChange(_:)``): then they wait for the reply, and the request's caller sends them with ``flush()``.
package final class Engine {
    private var settings: DaemonSettings
    private let logger: Logger
    private let store: StateStore
    private var classifier: OrientationClassifier
    private var policy: RotationPolicy
    private var generation = GenerationCounter()
    private var batch = EventBatch()
    /// The sensor's state as clients see it (PROTOCOL.md `sensor`).
    private(set) var sensorState = SensorState.stopped
    /// Tablet mode as clients see it: true folded as a tablet, false as a laptop, nil when nothing tells.
    private(set) var tabletMode: Bool?
    /// Where ``tabletMode`` comes from; nil when nothing tells.
    private(set) var tabletModeSource: TabletModeSource?
    /// The tablet-mode switch: nil without a switch.
    private(set) var switchTabletMode: Bool?
    /// The manual tablet mode (`tablet-mode on|off`), saved with the lock; nil for `auto`.
    private(set) var manualTabletMode: Bool?
    /// The hinge between the display and the base accelerometer; its decision counts while there is a base sensor.
    private(set) var hinge: HingeMonitor
    /// Whether there is a base accelerometer whose hinge counts (``refreshHasBase()``).
    private var hasBase = false
    /// Since when (sample time) the base accelerometer reads far from 1 g; nil while it reads plausibly.
    private var implausibleBaseSince: Double?
    /// Whether implausible base readings were said (once per process).
    private var warnedImplausibleBase = false
    private var clientIDs = ClientIDs()
    private var tiltTracker = TiltTracker()
    private var paceTracker = PaceTracker()

    /// The sensor; set once the daemon has made it (it reports its status and samples to the engine).
    package var sensor: (any EngineSensor)?
    /// The base accelerometer's sensor, started and stopped with ``sensor``; its samples go to ``handleBase(_:)``.
    var baseSensor: (any EngineSensor)?
    /// Sends an event line to every generating connection.
    var broadcast: ([UInt8]) -> Void = { _ in }
    /// Called after every change (for sd_notify STATUS= and the D-Bus properties).
    var onStateChange: (OrientationState) -> Void = { _ in }
    /// Whether the tilt is followed (per sample); only the D-Bus service reports it.
    package var tracksTilt = false
    /// Called when the tilt changed, after the change of state the same sample made (if any) was reported.
    var onTiltChange: () -> Void = {}
    /// Called when the daemon settles: the device has been still long enough for the idle pace, or the sensor
    /// stopped (for ``PageTrimmer``).
    package var onSettle: () -> Void = {}

    /// Takes the policy settings and restores the saved lock (dropped, and the file rewritten, when it no longer
    /// intersects `Supported=`).
    /// - Throws: ``PolicyError`` when the policy settings allow nothing.
    package init(settings: DaemonSettings, store: StateStore, logger: Logger) throws(PolicyError) {
        self.settings = settings
        self.logger = logger
        self.store = store
        classifier = OrientationClassifier(configuration: settings.classifier)
        hinge = HingeMonitor(configuration: settings.hinge)
        policy = try RotationPolicy(
            natural: settings.classifier.natural,
            supported: settings.supported,
            preferred: settings.preferred
        )
        let saved = store.load()
        manualTabletMode = saved.tabletMode
        if let mode = saved.tabletMode {
            tabletModeSource = .manual
            tabletMode = mode
            _ = policy.setFollowsDevice(Self.followsDevice(settings.autoRotate, tabletMode: mode))
            logger.info("manual tablet mode restored", metadata: ["tablet_mode": "\(mode ? "on" : "off")"])
        }
        if let lock = saved.lock {
            do {
                _ = try policy.setLock(lock)
                logger.info("lock restored", metadata: ["lock": "\(lock)"])
            } catch {
                logger.warning(
                    "the saved lock no longer intersects Supported=: dropped",
                    metadata: ["lock": "\(lock)", "supported": "\(settings.supported)"]
                )
                try? store.save(PersistedState(lock: nil, tabletMode: manualTabletMode))
            }
        }
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
            seq: batch.seq,
            tabletMode: tabletMode,
            tabletModeSource: tabletModeSource,
            hinge: hinge.angle.map { ($0 * 10).rounded() / 10 }
        )
    }

    /// Connections whose count is above zero.
    var generatingConnections: Int { generation.counts.count }
    /// The sum of all counts.
    var generationTotal: Int { generation.total }
    /// Whether this connection receives events.
    func isGenerating(_ client: ClientID) -> Bool { generation.count(for: client) > 0 }
    /// Whether there is a display accelerometer to read (iio-sensor-proxy's `HasAccelerometer`).
    var hasAccelerometer: Bool { sensorState != .absent && sensor?.accelerometer != nil }
    /// The panel's natural orientation in force.
    var natural: NaturalOrientation { policy.natural }
    /// Whether the interface follows the device orientation now (`AutoRotate=` and the switch).
    var followsDevice: Bool { policy.followsDevice }
    /// The tilt of the device (iio-sensor-proxy's `AccelerometerTilt`); undefined unless ``tracksTilt``.
    var tilt: DeviceTilt { tiltTracker.tilt }

    /// A new client identity, unique across the control socket's connections and the bus clients.
    func newClientID() -> ClientID { clientIDs.next() }

    // MARK: Samples (the hot path)

    /// One sample from the sensor: nothing but the classifier (and the tilt, for the D-Bus service) unless the
    /// orientation changes.
    package func handle(_ sample: Sample) {
        // The hinge (O(1), no allocation) first, so that a fold decided by this sample holds the interface before
        // the classifier turns it.
        if hasBase, hinge.update(sample, from: .display) { hingeDecided() }
        let before = classifier.filteredAcceleration
        let changed = classifier.update(sample)
        let tiltChanged =
            tracksTilt
            && tiltTracker.update(acceleration: classifier.filteredAcceleration, device: classifier.deviceOrientation)
        if changed {
            record(policy.setDevice(classifier.deviceOrientation))
            flush()
        }
        // A change of state has reported the tilt with it already; then this finds nothing new to report.
        if tiltChanged { onTiltChange() }
        // Slow sampling while still, the full rate at the first sample that moves (`IdleRate=`); last, as the sensor
        // may replace its buffer.
        if let sensor {
            let pace = paceTracker.pace(after: sample, before: before, classifier: classifier)
            if pace != sensor.pace {
                sensor.setPace(pace)
                // The base follows the display: the hinge needs no more than the display's pace, and a convertible
                // at rest should not be woken by its base alone.
                if let baseSensor, baseSensor.pace != pace { baseSensor.setPace(pace) }
                if pace == .idle { onSettle() }
            }
        }
    }

    /// One sample from the base accelerometer: the hinge only (O(1), no allocation). Readings far from 1 g (a
    /// broken or uncalibrated base sensor) are ignored; lasting two seconds, they are said once.
    func handleBase(_ sample: Sample) {
        let size = sample.acceleration.magnitude / HingeMonitor.gravity
        guard size >= 0.5, size <= 1.5 else {
            if let since = implausibleBaseSince {
                if !warnedImplausibleBase, sample.time - since >= 2 {
                    warnedImplausibleBase = true
                    logger.warning(
                        "the base accelerometer reads implausible values: ignored, the hinge angle is unknown",
                        metadata: ["magnitude": "\(sample.acceleration.magnitude) m/s²"]
                    )
                }
            } else {
                implausibleBaseSince = sample.time
            }
            return
        }
        implausibleBaseSince = nil
        if hinge.update(sample, from: .base) { hingeDecided() }
    }

    /// Finds out again whether the hinge counts: there is a base sensor with a base accelerometer, neither absent
    /// nor failed. Kept in ``hasBase`` for the hot path.
    private func refreshHasBase() {
        guard let baseSensor, baseSensor.accelerometer != nil else {
            hasBase = false
            return
        }
        hasBase = baseSensor.status == .active || baseSensor.status == .stopped
    }

    // MARK: The sensor

    /// The sensor's status changed.
    func sensorStatusChanged(to status: AccelerometerSensor.Status) {
        updateSensorState(status)
        flush()
    }

    /// The sensor found an accelerometer or lost it while stopped: a stopped sensor without one is `absent`.
    /// While someone generates the sensor's own status reports tell (a sensor replaced after a reload is
    /// discovered stopped and then started: that is no change for clients).
    func sensorDiscoveryChanged() {
        guard !generation.isGenerating else { return }
        updateSensorState(sensor?.status ?? .absent)
        flush()
    }

    /// The sensor's state as clients see it for `status`: a stopped sensor is `absent` when there is no
    /// accelerometer to start (PROTOCOL.md `absent`, "no display accelerometer").
    private func clientState(of status: AccelerometerSensor.Status) -> SensorState {
        switch status {
        case .active: .active
        case .stopped: sensor?.accelerometer == nil ? .absent : .stopped
        case .absent: .absent
        case .failed: .failed
        }
    }

    private func updateSensorState(_ status: AccelerometerSensor.Status) {
        let new = clientState(of: status)
        guard new != sensorState else { return }
        batch.note(.sensor, previous: .name(sensorState.rawValue))
        let wasActive = sensorState == .active
        sensorState = new
        if wasActive { onSettle() }
        if new != .active {
            // No samples any more: the device orientation is unknown until the sensor returns.
            classifier = OrientationClassifier(configuration: settings.classifier)
            _ = tiltTracker.reset()
            paceTracker.reset()
            record(policy.setDevice(.unknown))
        }
    }

    // MARK: Tablet mode

    /// Whether the interface follows the device orientation: always, except with `AutoRotate=tablet-mode` while
    /// tablet mode says the convertible is folded as a laptop. When nothing tells it follows (as `always`).
    private static func followsDevice(_ autoRotate: DaemonSettings.AutoRotate, tabletMode: Bool?) -> Bool {
        autoRotate == .always || tabletMode != false
    }

    /// Sets the manual tablet mode (nil: `auto`, the switch or the hinge decides), saved first: when it cannot be
    /// saved nothing changes.
    /// - Throws: ``StateStoreError`` when the state file cannot be written.
    func setManualTabletMode(_ value: Bool?) throws(StateStoreError) {
        guard value != manualTabletMode else { return }
        do {
            try store.save(PersistedState(lock: policy.lock, tabletMode: value))
        } catch {
            logger.error("the tablet mode could not be saved", metadata: ["error": "\(error)"])
            throw error
        }
        manualTabletMode = value
        logger.info("manual tablet mode", metadata: ["tablet_mode": "\(value.map { $0 ? "on" : "off" } ?? "auto")"])
        decideTabletMode()
        flush()
    }

    /// The tablet-mode switch changed (or appeared, or went).
    func tabletModeChanged(to value: Bool?) {
        guard value != switchTabletMode else { return }
        switchTabletMode = value
        decideTabletMode()
        flush()
    }

    /// The base sensor's status changed: a base accelerometer gone or failing takes the hinge's decision with it
    /// (tablet mode falls back to the switch or to nothing); one that is not capturing leaves the angle unknown.
    func baseSensorStatusChanged(to status: AccelerometerSensor.Status) {
        refreshHasBase()
        switch status {
        case .active: return
        case .stopped: hinge.forget(.base)
        case .absent, .failed: hinge = HingeMonitor(configuration: settings.hinge)
        }
        decideTabletMode()
        flush()
    }

    /// The base sensor found its accelerometer or lost it while stopped.
    func baseSensorDiscoveryChanged() {
        refreshHasBase()
        if baseSensor?.accelerometer == nil { hinge = HingeMonitor(configuration: settings.hinge) }
        decideTabletMode()
        flush()
    }

    /// The hinge decided anew (from a sample: the hot path, but only when the decision changes).
    private func hingeDecided() {
        decideTabletMode()
        flush()
    }

    /// Tablet mode from its sources, strongest first: the manual setting, else the switch, else the hinge, else
    /// nothing. A change of value is
    /// a `tablet-mode` event, and the policy starts or stops following the device (an `interface` event when the
    /// interface moves with it).
    private func decideTabletMode() {
        var value: Bool?
        var source: TabletModeSource?
        if let manualTabletMode {
            (value, source) = (manualTabletMode, .manual)
        } else if let switchTabletMode {
            (value, source) = (switchTabletMode, .switch)
        } else if hasBase, let decided = hinge.tabletMode {
            (value, source) = (decided, .hinge)
        }
        tabletModeSource = source
        guard value != tabletMode else { return }
        batch.note(.tabletMode, previous: .tabletMode(tabletMode))
        tabletMode = value
        record(policy.setFollowsDevice(Self.followsDevice(settings.autoRotate, tabletMode: value)))
    }

    // MARK: Generation

    /// Runs `body` (the handling of one request) as one change: its events wait for the reply, which the caller
    /// sends before calling ``flush()``. When `body` throws, nothing it noted is sent.
    func asOneChange<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        batch.hold()
        defer { batch.release() }
        do {
            return try body()
        } catch {
            batch.discard()
            throw error
        }
    }

    /// Adds one to a client's count, starting the sensor when it is the first.
    func begin(_ client: ClientID) -> GenerationCounter.Update {
        asOneSentChange {
            let update = generation.begin(client)
            if update.transition == .started {
                // The sensor reports its new status from inside `start()`: one change with the begin.
                if let sensor {
                    sensor.start()
                } else {
                    updateSensorState(.absent)
                }
                baseSensor?.start()
            }
            return update
        }
    }

    /// Takes one from a client's count, stopping the sensor when the total reaches 0.
    /// - Throws: ``NotGeneratingError`` when its count is 0; nothing changes then.
    func end(_ client: ClientID) throws(NotGeneratingError) -> GenerationCounter.Update {
        let update = try generation.end(client)
        if update.transition == .stopped { asOneSentChange { stopGenerating() } }
        return update
    }

    /// A bus client claims the accelerometer: one count, as a connection's `begin`; the events follow.
    func claim(for client: ClientID) {
        _ = begin(client)
    }

    /// A connection closed, or a bus client released its claim or left the bus: its count and constraint go.
    /// During a send (a connection dropped for not reading) it waits until the send is over, so that the events
    /// of the change being sent keep their order.
    func clientClosed(_ client: ClientID) {
        if batch.deferClose(client) { return }
        asOneSentChange {
            if generation.remove(client) == .stopped { stopGenerating() }
            record(policy.removeClient(client))
        }
    }

    private func stopGenerating() {
        sensor?.stop()
        baseSensor?.stop()
        // Nobody generates: the angle is unknown; the decision stands.
        hinge.stop()
        updateSensorState(.stopped)
        // Nobody receives events now; the state (device unknown) is what `get` shows.
        batch.discard()
        onStateChange(state)
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
                try store.save(PersistedState(lock: candidate.lock, tabletMode: manualTabletMode))
            } catch {
                logger.error("the lock could not be saved", metadata: ["error": "\(error)"])
                throw .notSaved(error)
            }
        }
        let change = PolicyChangeSummary(from: policy, to: candidate)
        policy = candidate
        record(change)
        flush()
    }

    /// Sets or clears (nil) a client's constraint.
    /// - Throws: ``PolicyError`` when it would allow nothing; nothing changes then.
    func constrain(_ mask: InterfaceOrientationMask?, for client: ClientID) throws(PolicyError) {
        record(try policy.setConstraint(mask, for: client))
        flush()
    }

    // MARK: Configuration

    /// Takes a reloaded configuration's policy and classifier settings, all or nothing, and sends the change as
    /// events: `allowed` for a new set, `interface` when the interface orientation or its rotation changes (a new
    /// `Natural=` turns the same interface orientation into another rotation).
    /// - Throws: ``PolicyError`` when `Supported=` would leave no orientation allowed with the lock
    ///   and constraints in force; nothing changes then.
    func reconfigure(_ new: DaemonSettings) throws(PolicyError) {
        var candidate = policy
        if new.classifier.natural != policy.natural {
            candidate = try RotationPolicy(
                natural: new.classifier.natural,
                supported: new.supported,
                preferred: new.preferred
            )
            _ = try candidate.setLock(policy.lock)
            for (client, mask) in policy.constraints { _ = try candidate.setConstraint(mask, for: client) }
            _ = candidate.setDevice(policy.device)
        } else if new.supported != settings.supported || new.preferred != settings.preferred {
            _ = try candidate.setSupported(new.supported, preferred: new.preferred)
        }
        if new.classifier != settings.classifier {
            classifier = OrientationClassifier(configuration: new.classifier)
            paceTracker.reset()
        }
        // New thresholds apply from the next reliable angle; the readings and the decision are kept.
        hinge.configuration = new.hinge
        _ = candidate.setFollowsDevice(Self.followsDevice(new.autoRotate, tabletMode: tabletMode))
        let change = PolicyChangeSummary(from: policy, to: candidate)
        policy = candidate
        settings = new
        record(change)
        flush()
    }

    // MARK: Events

    /// Runs `body`, which may call out to the sensor (whose status reports come back in), as one change, and sends
    /// its events (unless a request holds them).
    private func asOneSentChange<Result>(_ body: () -> Result) -> Result {
        batch.hold()
        let result = body()
        batch.release()
        flush()
        return result
    }

    private func record(_ change: PolicyChange) {
        record(PolicyChangeSummary(change))
    }

    private func record(_ change: PolicyChangeSummary) {
        if change.allowedOrLock { batch.note(.allowed) }
        if let previous = change.previousDevice { batch.note(.device, previous: .name(previous.wireName)) }
        if let previous = change.previousInterface { batch.note(.interface, previous: .name(previous.wireName)) }
    }

    /// Sends the events of the changes made since the last send, in PROTOCOL.md's order, all with the same state
    /// and seq; nothing while a request is answered or a send is under way. A connection dropped during the send
    /// (one that does not read) is taken away only afterwards, so that its own change's events follow in seq
    /// order.
    func flush() {
        guard let events = batch.beginSending() else { return }
        let current = state
        for (name, previous) in events {
            broadcast(MessageEncoder.event(EventBatch.event(name, previous: previous, state: current)))
        }
        onStateChange(current)
        if logger.logLevel <= .debug {
            logger.debug(
                "state",
                metadata: ["device": "\(current.device)", "interface": "\(current.interface)", "seq": "\(current.seq)"]
            )
        }
        for client in batch.endSending() { clientClosed(client) }
    }
}
