public import EventLoop
public import Logging
public import OrientationCore

/// The display accelerometer as a set of sources on the event loop, started and stopped on demand.
///
/// Started, it discovers the display accelerometer, captures through the IIO buffer (falling back
/// to polling when the buffer delivers nothing within ``SensorOptions/pollFallback``), and hands
/// every calibrated sample to its sink. Stopped, it leaves nothing that wakes the process and the
/// device as it found it. It follows hotplug: a removed device makes it absent, a returning one
/// is picked up again while it is wanted.
public final class AccelerometerSensor {
    /// The sensor's state as clients see it (PROTOCOL.md `sensor`).
    public enum Status: String, Sendable, Hashable {
        /// Not wanted: nobody generating.
        case stopped
        /// Capturing.
        case active
        /// Wanted, but there is no display accelerometer.
        case absent
        /// Wanted, but capture failed and is being retried.
        case failed
    }

    private enum State {
        case stopped
        case absent
        case buffered(BufferedCapture, fallback: TimerSource?)
        case polled(PolledCapture)
        case failed(retry: TimerSource?)
    }

    private let loop: EventLoop
    private let options: SensorOptions
    private let logger: Logger
    private let sink: (Sample) -> Void
    private var state = State.stopped
    private var monitor: HotplugMonitor?
    private var pendingDiscovery: TimerSource?
    private var consecutiveFailures = 0

    /// Called with the old and new status on every change.
    public var onStatusChange: ((_ previous: Status, _ current: Status) -> Void)?
    /// Called when a device is found or removed while the sensor is stopped (no status changes then).
    public var onDiscovery: (() -> Void)?
    /// The accelerometer in use (or last used).
    public private(set) var accelerometer: Accelerometer?
    /// How it is read now; nil while not capturing.
    public private(set) var mode: CaptureMode?
    /// Whether polling was chosen because the buffer delivered nothing.
    public private(set) var fellBack = false
    /// The rate asked for, in samples per second.
    public var rate: Double { options.rate }
    /// The last error, for diagnostics.
    public private(set) var lastError: String?
    /// Samples handed on since the process started.
    public private(set) var samplesRead = 0

    /// A stopped sensor. It listens for hotplug at once (an idle netlink socket costs no wake-ups).
    public init(loop: EventLoop, options: SensorOptions, logger: Logger, sink: @escaping (Sample) -> Void) {
        self.loop = loop
        self.options = options
        self.logger = logger
        self.sink = sink
        do {
            monitor = try HotplugMonitor(loop: loop) { [unowned self] action, sysname in
                self.hotplug(action: action, sysname: sysname)
            }
        } catch {
            logger.warning("hotplug is not followed: \(error)")
        }
    }

    deinit {
        tearDown()
    }

    /// The current status.
    public var status: Status {
        switch state {
        case .stopped: .stopped
        case .absent: .absent
        case .buffered, .polled: .active
        case .failed: .failed
        }
    }

    /// Starts capture (or waits for a device if there is none). Does nothing if already started.
    public func start() {
        guard case .stopped = state else { return }
        consecutiveFailures = 0
        attempt()
    }

    /// Stops capture completely and restores the device.
    public func stop() {
        let previous = status
        tearDown()
        state = .stopped
        report(from: previous)
    }

    /// Looks for the accelerometer without starting it, so that it can be named while stopped.
    public func refreshDiscovery() {
        guard case .stopped = state else { return }
        do {
            let discovery = try AccelerometerDiscovery.discover(
                uri: options.uri,
                device: options.device,
                mountMatrix: options.mountMatrix
            )
            accelerometer = discovery.chosen
            if let chosen = discovery.chosen {
                logger.info("accelerometer found: \(discovery.reason)", metadata: metadata(chosen))
            } else {
                logger.notice("no accelerometer yet: \(discovery.reason)")
            }
        } catch {
            accelerometer = nil
            logger.notice("no accelerometer yet: \(error)")
        }
        onDiscovery?()
    }

    private var wanted: Bool {
        if case .stopped = state { return false }
        return true
    }

    private func attempt() {
        let previous = status
        tearDown()
        state = begin()
        report(from: previous)
    }

    /// Discovers the device and starts capturing; the state to be in.
    private func begin() -> State {
        // A fresh context each time: a context is a snapshot, and devices come and go.
        let context: IIOContext
        do {
            context = try IIOContext(uri: options.uri)
        } catch {
            lastError = "\(error)"
            logger.notice("no accelerometer: \(error)")
            return .absent
        }
        let discovery = AccelerometerDiscovery.discover(
            in: context,
            udev: try? Udev(),
            device: options.device,
            mountMatrix: options.mountMatrix
        )
        guard let chosen = discovery.chosen, let device = context.device(named: chosen.id) else {
            lastError = discovery.reason
            logger.notice("no accelerometer: \(discovery.reason)")
            return .absent
        }
        accelerometer = chosen
        for warning in chosen.warnings { logger.warning("\(warning)", metadata: ["device": "\(chosen.id)"]) }
        if chosen.canBuffer && !options.forcePolling {
            do {
                let capture = try BufferedCapture(
                    device: device,
                    accelerometer: chosen,
                    rate: options.rate,
                    loop: loop,
                    logger: logger,
                    sink: { [unowned self] sample in self.deliver(sample) },
                    failure: { [unowned self] error in self.captureFailed(error) }
                )
                let fallback = try? loop.addTimer(at: loop.now + options.pollFallback) { [unowned self] in
                    self.checkBuffer()
                }
                mode = .buffer
                fellBack = false
                logger.info("capturing through the buffer", metadata: metadata(chosen))
                return .buffered(capture, fallback: fallback)
            } catch {
                logger.warning("buffered capture failed, polling instead: \(error)", metadata: metadata(chosen))
                fellBack = true
            }
        }
        return startPolling(device, chosen)
    }

    private func startPolling(_ device: IIODevice, _ chosen: Accelerometer) -> State {
        do {
            let capture = try PolledCapture(
                device: device,
                accelerometer: chosen,
                rate: options.rate,
                loop: loop,
                logger: logger,
                sink: { [unowned self] sample in self.deliver(sample) },
                failure: { [unowned self] error in self.captureFailed(error) }
            )
            mode = .poll
            logger.info("polling the accelerometer", metadata: metadata(chosen))
            return .polled(capture)
        } catch {
            return failed(error)
        }
    }

    private func metadata(_ accelerometer: Accelerometer) -> Logger.Metadata {
        [
            "device": "\(accelerometer.id)", "name": "\(accelerometer.name)", "rate": "\(options.rate)",
            "matrix": "\(accelerometer.calibration.matrix)", "matrix_source": "\(accelerometer.matrixSource)",
        ]
    }

    private func deliver(_ sample: Sample) {
        samplesRead += 1
        consecutiveFailures = 0
        sink(sample)
    }

    /// The buffer had `PollFallbackSec=` to deliver a scan; if it did not, poll instead.
    private func checkBuffer() {
        guard case .buffered(let capture, _) = state, let accelerometer else { return }
        guard capture.scansReceived == 0 else {
            state = .buffered(capture, fallback: nil)
            return
        }
        logger.warning(
            "the buffer delivered no scan within \(options.pollFallback) s: polling instead",
            metadata: metadata(accelerometer)
        )
        capture.stop()
        let device = capture.device
        fellBack = true
        let previous = status
        state = startPolling(device, accelerometer)
        report(from: previous)
    }

    private func captureFailed(_ error: SensorError) {
        lastError = "\(error)"
        let previous = status
        tearDown()
        if error.isDeviceGone {
            logger.notice("the accelerometer is gone: \(error)")
            state = .absent
        } else {
            state = failed(error)
        }
        report(from: previous)
    }

    /// Failed: retry soon, then less often.
    private func failed(_ error: SensorError) -> State {
        lastError = "\(error)"
        consecutiveFailures += 1
        let delay = consecutiveFailures < 5 ? 1.0 : 10.0
        logger.error("accelerometer capture failed, retrying in \(delay) s: \(error)")
        let retry = try? loop.addTimer(at: loop.now + delay) { [unowned self] in self.attempt() }
        return .failed(retry: retry)
    }

    private func hotplug(action: String, sysname: String) {
        logger.debug("udev event", metadata: ["action": "\(action)", "device": "\(sysname)"])
        switch action {
        case "remove" where sysname == accelerometer?.id && wanted:
            captureFailed(SensorError(.deviceGone, operation: "udev remove", device: sysname))
        case "remove" where sysname == accelerometer?.id:
            accelerometer = nil
            onDiscovery?()
        case "add", "change", "bind":
            if case .stopped = state, accelerometer == nil {
                refreshDiscovery()
                return
            }
            guard case .absent = state else { return }
            // Let the device settle (attributes appear with the event), then look again.
            pendingDiscovery = try? loop.addTimer(at: loop.now + 0.1) { [unowned self] in
                self.pendingDiscovery = nil
                if case .absent = self.state { self.attempt() }
            }
        default:
            break
        }
    }

    /// Releases every capture source and timer.
    private func tearDown() {
        switch state {
        case .buffered(let capture, _): capture.stop()
        case .polled(let capture): capture.stop()
        case .stopped, .absent, .failed: break
        }
        state = .absent
        mode = nil
    }

    private func report(from previous: Status) {
        let current = status
        guard current != previous else { return }
        onStatusChange?(previous, current)
    }
}

/// How to find and read the accelerometer (CONFIG.md `[Sensor]`).
public struct SensorOptions: Sendable {
    /// A libiio URI; nil for the local machine.
    public var uri: String?
    /// A device to use instead of choosing: id, name, label or sysfs path.
    public var device: String?
    /// Samples per second to ask for (5–400).
    public var rate: Double
    /// Seconds without a scan after enabling the buffer before polling instead.
    public var pollFallback: Double
    /// A configured mount matrix that overrides udev and sysfs.
    public var mountMatrix: MountMatrix?
    /// Poll even when the buffer could be used.
    public var forcePolling: Bool

    /// The defaults of CONFIG.md: local, chosen automatically, 20 Hz, 2 s fallback.
    public init(
        uri: String? = nil,
        device: String? = nil,
        rate: Double = 20,
        pollFallback: Double = 2,
        mountMatrix: MountMatrix? = nil,
        forcePolling: Bool = false
    ) {
        self.uri = uri
        self.device = device
        self.rate = rate
        self.pollFallback = pollFallback
        self.mountMatrix = mountMatrix
        self.forcePolling = forcePolling
    }
}
