import IIOSensor
import Logging
import OrientProtocol
import OrientationCore

/// The daemon's logic between the sensor and the socket: classifies samples, applies the rotation
/// policy, counts generation, keeps the lock on disk, and turns every change into the events of
/// PROTOCOL.md. It does no I/O on the socket itself: it returns replies and hands events to
/// ``broadcast``, which the control server sends to the generating connections.
final class Engine {
    private var settings: DaemonSettings
    private let logger: Logger
    private let store: StateStore
    private var authorizer: Authorizer
    private var classifier: OrientationClassifier
    private var policy: RotationPolicy
    private var generation = GenerationCounter()
    private var sensorState = SensorState.stopped
    /// The tablet-mode switch: true folded as a tablet, false as a laptop, nil without a switch.
    private(set) var tabletMode: Bool?
    private(set) var seq: UInt64 = 0
    private var pending: [OrientationEvent.Name: String?] = [:]
    /// Whether a request is being handled: its events wait until its reply is sent.
    private(set) var inRequest = false
    /// Whether events are being sent; connections closed meanwhile wait in `closedWhileFlushing`.
    private var flushing = false
    private var closedWhileFlushing: [ClientID] = []
    private var nextClientID: UInt64 = 1
    private var tiltTracker = TiltTracker()
    let startTime: Double

    /// The sensor; set once the daemon has made it (it calls back into the engine).
    var sensor: AccelerometerSensor?
    /// Sends an event line to every generating connection.
    var broadcast: ([UInt8]) -> Void = { _ in }
    /// Called after every change (for sd_notify STATUS=).
    var onStateChange: (OrientationState) -> Void = { _ in }
    /// The number of open connections, for `status`.
    var clientCount: () -> Int = { 0 }
    /// The loop's clock, for `status`'s uptime.
    var now: () -> Double = { 0 }
    /// The tablet-mode switches read now, for `status`.
    var tabletSwitches: () -> [StatusReport.TabletMode.Switch] = { [] }
    /// Whether the tilt is followed (per sample); only the D-Bus service reports it.
    var tracksTilt = false
    /// Called when the tilt changed, after the change of state the same sample made (if any) was reported.
    var onTiltChange: () -> Void = {}
    /// The D-Bus service's part of `status`; nil while it is off.
    var busStatus: () -> StatusReport.Bus? = { nil }

    init(settings: DaemonSettings, store: StateStore, authorizer: Authorizer, logger: Logger, now: Double) throws {
        self.settings = settings
        self.logger = logger
        self.store = store
        self.authorizer = authorizer
        startTime = now
        classifier = OrientationClassifier(configuration: settings.classifier)
        policy = try RotationPolicy(
            natural: settings.classifier.natural,
            supported: settings.supported,
            preferred: settings.preferred
        )
        if let lock = store.load().lock {
            do {
                _ = try policy.setLock(lock)
                logger.info("lock restored", metadata: ["lock": "\(lock)"])
            } catch {
                logger.warning(
                    "the saved lock no longer intersects Supported=: dropped",
                    metadata: ["lock": "\(lock)", "supported": "\(settings.supported)"]
                )
                try? store.save(PersistedState(lock: nil))
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
            seq: seq,
            tabletMode: tabletMode
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
    /// The tilt of the device (iio-sensor-proxy's `AccelerometerTilt`); undefined unless ``tracksTilt``.
    var tilt: DeviceTilt { tiltTracker.tilt }

    /// A new client identity, unique across the control socket's connections and the bus clients.
    func newClientID() -> ClientID {
        defer { nextClientID += 1 }
        return ClientID(nextClientID)
    }

    // MARK: Samples (the hot path)

    /// One sample from the sensor: nothing but the classifier (and the tilt, for the D-Bus service) unless the
    /// orientation changes.
    func handle(_ sample: Sample) {
        let changed = classifier.update(sample)
        let tiltChanged =
            tracksTilt
            && tiltTracker.update(acceleration: classifier.filteredAcceleration, device: classifier.deviceOrientation)
        if changed {
            apply(policy.setDevice(classifier.deviceOrientation))
            flush()
        }
        // A change of state has reported the tilt with it already; then this finds nothing new to report.
        if tiltChanged { onTiltChange() }
    }

    /// The sensor's status changed.
    func sensorStatusChanged(to status: AccelerometerSensor.Status) {
        let new: SensorState =
            switch status {
            case .active: .active
            case .stopped: .stopped
            case .absent: .absent
            case .failed: .failed
            }
        guard new != sensorState else { return }
        note(.sensor, previous: sensorState.rawValue)
        sensorState = new
        if new != .active {
            // No samples any more: the device orientation is unknown until the sensor returns.
            classifier = OrientationClassifier(configuration: settings.classifier)
            _ = tiltTracker.reset()
            apply(policy.setDevice(.unknown))
        }
    }

    // MARK: Tablet mode

    /// Whether the interface follows the device orientation: always, except with `AutoRotate=tablet-mode` while
    /// a switch says the convertible is folded as a laptop. Without a switch it follows (as `always`).
    private static func followsDevice(_ autoRotate: DaemonSettings.AutoRotate, tabletMode: Bool?) -> Bool {
        autoRotate == .always || tabletMode != false
    }

    /// The tablet-mode switch changed (or appeared, or went). The policy starts or stops following the device;
    /// an interface change is sent as the usual `interface` event. A change of the switch alone sends no event
    /// of its own: it is counted in `seq` and shows in `tablet_mode` in every state from then on.
    func tabletModeChanged(to value: Bool?) {
        guard value != tabletMode else { return }
        tabletMode = value
        let quiet = pending.isEmpty
        apply(policy.setFollowsDevice(Self.followsDevice(settings.autoRotate, tabletMode: value)))
        if quiet && pending.isEmpty {
            seq += 1
            onStateChange(state)
        }
    }

    // MARK: Requests

    /// Handles one request of a connection.
    /// - Returns: the reply line; the events it caused are broadcast after the caller sends it (``flush()``).
    func handle(_ request: Request, from client: ClientID, peer: PeerCredentials?) -> [UInt8] {
        inRequest = true
        defer { inRequest = false }
        do {
            return try reply(to: request, from: client, peer: peer)
        } catch {
            pending.removeAll()
            return MessageEncoder.error(id: request.id, error)
        }
    }

    private func reply(
        to request: Request,
        from client: ClientID,
        peer: PeerCredentials?
    ) throws(ProtocolError) -> [UInt8] {
        if request.method.needsController {
            guard let peer, authorizer.isController(peer) else {
                let why = peer.map { authorizer.explain($0) } ?? "the peer's credentials are unknown"
                logger.notice("\(request.method.rawValue) refused: \(why)")
                throw ProtocolError(.permissionDenied, "\(request.method.rawValue) is for controllers: \(why)")
            }
        }
        switch (request.method, request.parameters) {
        case (.hello, _):
            let sensor = HelloResult.Sensor(status: sensorState, device: self.sensor?.accelerometer?.name)
            return MessageEncoder.result(id: request.id, HelloResult(version: OrientdVersion.current, sensor: sensor))
        case (.get, _):
            return MessageEncoder.result(id: request.id, state)
        case (.begin, _):
            let update = beginGenerating(client)
            return MessageEncoder.result(id: request.id, BeginResult(count: update.count, state: state))
        case (.end, _):
            let update: GenerationCounter.Update
            do {
                update = try generation.end(client)
            } catch {
                throw ProtocolError(.notGenerating, "end without a matching begin: this connection's count is 0")
            }
            if update.transition == .stopped { stopGenerating() }
            return MessageEncoder.result(id: request.id, EndResult(count: update.count))
        case (.lock, .lock(let target)):
            try changeLock { (policy: inout RotationPolicy) throws(PolicyError) in
                switch target {
                case .current: _ = try policy.lockCurrent()
                case .orientation(let orientation): _ = try policy.setLock(InterfaceOrientationMask(orientation))
                case .mask(let mask): _ = try policy.setLock(mask)
                }
            }
            return MessageEncoder.result(id: request.id, state)
        case (.unlock, _):
            try changeLock { (policy: inout RotationPolicy) throws(PolicyError) in _ = try policy.setLock(nil) }
            return MessageEncoder.result(id: request.id, state)
        case (.constrain, .constrain(let mask)):
            do {
                apply(try policy.setConstraint(mask, for: client))
            } catch {
                throw Self.protocolError(error)
            }
            return MessageEncoder.result(id: request.id, state)
        case (.status, _):
            return MessageEncoder.result(id: request.id, statusReport())
        default:
            throw ProtocolError(.internal, "parameters do not match the method")
        }
    }

    /// Applies a lock change on a copy, saves it, and only then makes it the policy.
    private func changeLock(_ edit: (inout RotationPolicy) throws(PolicyError) -> Void) throws(ProtocolError) {
        var candidate = policy
        do {
            try edit(&candidate)
        } catch {
            throw Self.protocolError(error)
        }
        if candidate.lock != policy.lock {
            do {
                try store.save(PersistedState(lock: candidate.lock))
            } catch {
                logger.error("the lock could not be saved: \(error)")
                throw ProtocolError(.stateNotSaved, "the lock could not be saved, nothing changed: \(error)")
            }
        }
        let change = PolicyChangeSummary(from: policy, to: candidate)
        policy = candidate
        record(change)
    }

    private static func protocolError(_ error: PolicyError) -> ProtocolError {
        switch error.reason {
        case .emptyMask: ProtocolError(.emptyMask, error.description)
        case .invalidOrientation(let message): ProtocolError(.invalidOrientation, message)
        }
    }

    /// Adds one to a client's count, starting the sensor when it is the first.
    private func beginGenerating(_ client: ClientID) -> GenerationCounter.Update {
        let update = generation.begin(client)
        if update.transition == .started {
            sensor?.start()
            if sensor == nil { sensorStatusChanged(to: .absent) }
        }
        return update
    }

    /// A bus client claims the accelerometer: one count, as a connection's `begin`; the events follow.
    func claim(for client: ClientID) {
        inRequest = true
        _ = beginGenerating(client)
        inRequest = false
        flush()
    }

    /// A connection closed, or a bus client released its claim or left the bus: its count and constraint go.
    func clientClosed(_ client: ClientID) {
        if flushing {
            closedWhileFlushing.append(client)
            return
        }
        if generation.remove(client) == .stopped { stopGenerating() }
        apply(policy.removeClient(client))
        flush()
    }

    private func stopGenerating() {
        sensor?.stop()
        sensorStatusChanged(to: .stopped)
        // Nobody receives events now; the state (device unknown) is what `get` shows.
        pending.removeAll()
        onStateChange(state)
    }

    // MARK: Events

    private func apply(_ change: PolicyChange) {
        record(PolicyChangeSummary(change))
    }

    private func record(_ change: PolicyChangeSummary) {
        if change.allowedOrLock { note(.allowed, previous: nil) }
        if let previous = change.previousDevice { note(.device, previous: previous.wireName) }
        if let previous = change.previousInterface { note(.interface, previous: previous.wireName) }
    }

    /// Notes an event to send; the first one of a change counts the change in `seq`, so that the
    /// reply and every event of one change carry the same seq.
    private func note(_ name: OrientationEvent.Name, previous: String?) {
        if pending.isEmpty { seq += 1 }
        if pending[name] == nil { pending[name] = .some(previous) }
    }

    /// Sends the events of the changes made since the last flush, in PROTOCOL.md's order, all
    /// with the same state and seq. A connection dropped while they are sent (one that does not
    /// read) is taken away only afterwards, so that its own change's events follow in seq order.
    func flush() {
        guard !pending.isEmpty, !flushing else { return }
        flushing = true
        let current = state
        let events = pending
        pending.removeAll(keepingCapacity: true)
        for name in OrientationEvent.Name.allCases {
            guard let previous = events[name] else { continue }
            broadcast(MessageEncoder.event(OrientationEvent(name: name, previous: previous, state: current)))
        }
        onStateChange(current)
        if logger.logLevel <= .debug {
            logger.debug(
                "state",
                metadata: ["device": "\(current.device)", "interface": "\(current.interface)", "seq": "\(current.seq)"]
            )
        }
        flushing = false
        while !closedWhileFlushing.isEmpty {
            clientClosed(closedWhileFlushing.removeFirst())
        }
    }

    // MARK: Configuration

    /// Takes a reloaded configuration's policy, classifier and control settings, all or nothing.
    /// The policy change is sent as events (with the next ``flush()``).
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
        if new.controlGroup != settings.controlGroup || new.seatUsers != settings.seatUsers {
            authorizer = Authorizer(group: new.controlGroup, seatUsers: new.seatUsers, logger: logger)
        }
        if new.classifier != settings.classifier {
            classifier = OrientationClassifier(configuration: new.classifier)
        }
        _ = candidate.setFollowsDevice(Self.followsDevice(new.autoRotate, tabletMode: tabletMode))
        let change = PolicyChangeSummary(from: policy, to: candidate)
        policy = candidate
        settings = new
        record(change)
    }

    // MARK: Status

    func statusReport() -> StatusReport {
        let accelerometer = sensor?.accelerometer
        let calibration = accelerometer?.calibration
        let report = StatusReport.Sensor(
            status: sensorState,
            device: accelerometer?.id,
            driver: accelerometer?.name,
            mode: sensor?.mode?.rawValue,
            fellBack: sensor?.fellBack ?? false,
            rate: settings.sensor.rate,
            scale: calibration.map { [$0.scale.x, $0.scale.y, $0.scale.z] },
            offset: calibration.map { [$0.offset.x, $0.offset.y, $0.offset.z] },
            matrix: calibration.map { "\($0.matrix)" },
            matrixSource: accelerometer?.matrixSource,
            location: accelerometer.map { "\($0.location.rawValue) (\($0.locationSource))" },
            samplesRead: sensor?.samplesRead ?? 0,
            lastError: sensor?.lastError
        )
        return StatusReport(
            version: OrientdVersion.current,
            uptime: max(0, now() - startTime),
            sensor: report,
            clients: clientCount(),
            generatingConnections: generatingConnections,
            generationTotal: generationTotal,
            state: state,
            tabletMode: StatusReport.TabletMode(
                autoRotate: settings.autoRotate.rawValue,
                followsDevice: policy.followsDevice,
                switches: tabletSwitches()
            ),
            bus: busStatus()
        )
    }
}

/// What changed between two policies, for events.
private struct PolicyChangeSummary {
    var previousDevice: DeviceOrientation?
    var previousInterface: InterfaceOrientation?
    var allowedOrLock: Bool

    init(_ change: PolicyChange) {
        previousDevice = change.previousDevice
        previousInterface = change.previousInterface
        allowedOrLock = change.allowedChanged || change.lockChanged
    }

    init(from old: RotationPolicy, to new: RotationPolicy) {
        previousDevice = old.device != new.device ? old.device : nil
        previousInterface = old.interface != new.interface ? old.interface : nil
        allowedOrLock = old.allowed != new.allowed || old.lock != new.lock
    }
}
