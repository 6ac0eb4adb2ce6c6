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
///
/// Many drivers stop delivering after a suspend. While capturing through the buffer it watches for
/// that at a low rate: a buffer that delivered and then stays silent for `pollFallback` seconds,
/// two consecutive samples more than ``clockJump`` seconds apart, or a suspend (CLOCK_BOOTTIME
/// running ahead of CLOCK_MONOTONIC by more than that) makes it re-validate the sensor: the buffer
/// is disabled and enabled again, and if it then stays silent for `pollFallback` seconds, the
/// sensor is polled instead. Readings of 0 on every axis and clipped readings (an axis at the limit
/// of its range) never reach the sink; they count as silence, and a run of them is logged once.
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
        case buffered(BufferedCapture, watch: TimerSource?)
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
    /// Samples handed to the sink since the process started (usable ones only).
    private var usableSamples = 0
    /// `usableSamples` when the current capture started, and at the last look of the buffer watch.
    private var usableAtCaptureStart = 0
    private var usableAtLastLook = 0
    /// Consecutive looks of the buffer watch that found no new usable sample.
    private var silentLooks = 0
    /// Whether the current buffer was enabled again by a re-validation.
    private var revalidated = false
    /// `usableSamples` at the last re-validation; nil before the first of this capture.
    private var usableAtRevalidation: Int?
    /// `bootTime - now` at the last look: it grows by the length of every suspend.
    private var asleepOffset = 0.0
    /// The time of the last sample, to see the clock jump between two; NaN after a (re)start.
    private var lastSampleTime = Double.nan
    /// A re-validation asked for from inside the capture's callback, run at the next loop iteration.
    private var pendingRevalidation: TimerSource?
    /// The unusable readings (zero or saturated) since the last usable one: what, since when, whether logged.
    private var anomaly: (quality: ReadingQuality, since: Double, reported: Bool)?

    /// Consecutive samples this far apart (seconds) mean the clock jumped: a suspend, or the clock was set.
    public static let clockJump = 5.0
    /// A run of unusable readings this long (sample time, seconds) is logged.
    static let anomalyReportTime = 1.0
    /// Failing reads in poll mode for this long (seconds) make the sensor `failed`.
    static let readFailureLimit = 5.0

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
    /// Samples read since the process started, including unusable ones that were not handed on.
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
        fellBack = false
        if chosen.canBuffer && !options.forcePolling, let buffered = startBuffered(device, chosen) {
            return buffered
        }
        return startPolling(device, chosen)
    }

    /// Captures through the buffer, watched by a timer at half of `PollFallbackSec=`; nil (and
    /// `fellBack`) when the buffer cannot be set up.
    private func startBuffered(_ device: IIODevice, _ chosen: Accelerometer) -> State? {
        do {
            let capture = try BufferedCapture(
                device: device,
                accelerometer: chosen,
                rate: options.rate,
                loop: loop,
                logger: logger,
                sink: { [unowned self] sample, quality in self.deliver(sample, quality) },
                failure: { [unowned self] error in self.captureFailed(error) }
            )
            let watch = try? loop.addRepeatingTimer(interval: options.pollFallback / 2) { [unowned self] in
                self.watchBuffer()
            }
            mode = .buffer
            usableAtCaptureStart = usableSamples
            usableAtLastLook = usableSamples
            silentLooks = 0
            lastSampleTime = .nan
            asleepOffset = loop.bootTime - loop.now
            logger.info("capturing through the buffer", metadata: metadata(chosen))
            return .buffered(capture, watch: watch)
        } catch {
            logger.warning("buffered capture failed, polling instead: \(error)", metadata: metadata(chosen))
            fellBack = true
            return nil
        }
    }

    private func startPolling(_ device: IIODevice, _ chosen: Accelerometer) -> State {
        do {
            let capture = try PolledCapture(
                device: device,
                accelerometer: chosen,
                rate: options.rate,
                loop: loop,
                logger: logger,
                giveUpAfter: Self.readFailureLimit,
                sink: { [unowned self] sample, quality in self.deliver(sample, quality) },
                trouble: { [unowned self] error in self.lastError = "\(error)" },
                failure: { [unowned self] error in self.captureFailed(error) }
            )
            mode = .poll
            lastSampleTime = .nan
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

    /// The hot path: counts, checks the gap to the previous sample (no clock read: the samples carry their
    /// time), and hands usable samples on.
    private func deliver(_ sample: Sample, _ quality: ReadingQuality) {
        samplesRead += 1
        let gap = sample.time - lastSampleTime
        lastSampleTime = sample.time
        if gap.magnitude > Self.clockJump, pendingRevalidation == nil, case .buffered = state {
            pendingRevalidation = try? loop.addTimer(at: loop.now) { [unowned self] in
                self.pendingRevalidation = nil
                self.revalidate("the clock jumped by \(Self.seconds(gap)) s between two samples (a suspend?)")
            }
        }
        guard quality == .usable else {
            unusable(sample, quality)
            if options.handsOnImplausibleReadings { sink(sample) }
            return
        }
        usableSamples += 1
        consecutiveFailures = 0
        if anomaly != nil { anomalyEnded() }
        sink(sample)
    }

    /// A reading of zeros or a clipped one: not handed on; a run of them lasting a second is logged once.
    private func unusable(_ sample: Sample, _ quality: ReadingQuality) {
        guard let current = anomaly, current.quality == quality else {
            anomaly = (quality, sample.time, false)
            return
        }
        guard !current.reported, sample.time - current.since >= Self.anomalyReportTime else { return }
        anomaly = (quality, current.since, true)
        let what =
            quality == .zero
            ? "the accelerometer reads 0 on every axis (powered down or not measuring?)"
            : "the accelerometer reads at the limit of its range (saturated)"
        lastError = "\(accelerometer?.id ?? "accelerometer"): \(what): readings ignored"
        logger.warning(
            "\(what): readings ignored until they are plausible again",
            metadata: ["device": "\(accelerometer?.id ?? "?")"]
        )
    }

    private func anomalyEnded() {
        if let anomaly, anomaly.reported {
            logger.notice(
                "the accelerometer's readings are plausible again",
                metadata: ["device": "\(accelerometer?.id ?? "?")"]
            )
        }
        anomaly = nil
    }

    /// The buffer watch, every `PollFallbackSec=` / 2 while capturing through the buffer: no syscall but the
    /// loop's cached clocks. A suspend, or no usable sample for `PollFallbackSec=`, re-validates the sensor;
    /// a buffer that never delivered (at the start, or after a re-validation) is replaced by polling.
    private func watchBuffer() {
        guard case .buffered = state, let accelerometer else { return }
        let asleep = loop.bootTime - loop.now
        let slept = asleep - asleepOffset
        asleepOffset = asleep
        if slept > Self.clockJump {
            revalidate("the system was suspended for \(Self.seconds(slept)) s")
            return
        }
        if usableSamples != usableAtLastLook {
            usableAtLastLook = usableSamples
            silentLooks = 0
            return
        }
        silentLooks += 1
        guard silentLooks >= 2 else { return }
        if usableSamples != usableAtCaptureStart {
            revalidate("the buffer delivered nothing usable for \(Self.seconds(options.pollFallback)) s")
            return
        }
        logger.warning(
            revalidated
                ? "the buffer stayed silent for \(Self.seconds(options.pollFallback)) s after it was enabled again: polling instead"
                : "the buffer delivered no scan within \(Self.seconds(options.pollFallback)) s: polling instead",
            metadata: metadata(accelerometer)
        )
        fallBackToPolling()
    }

    /// Disables and enables the buffer again (the fix for drivers that stop after a resume); a buffer that
    /// cannot be set up again is replaced by polling at once.
    private func revalidate(_ reason: String) {
        guard case .buffered(let capture, _) = state, let accelerometer else { return }
        pendingRevalidation = nil
        // Less than one watch period's worth of samples since the last re-validation: it did not help (a
        // driver that sends a scan when enabled and then nothing, or scans far apart). Poll, do not loop.
        if let since = usableAtRevalidation, usableSamples - since < Int(max(1, options.rate * options.pollFallback)) {
            logger.warning(
                "\(reason), again soon after the buffer was enabled again: polling instead",
                metadata: metadata(accelerometer)
            )
            fallBackToPolling()
            return
        }
        usableAtRevalidation = usableSamples
        logger.info("\(reason): disabling and enabling the buffer again", metadata: metadata(accelerometer))
        capture.stop()
        let previous = status
        let device = capture.device
        state = .absent
        if let buffered = startBuffered(device, accelerometer) {
            revalidated = true
            state = buffered
        } else {
            state = startPolling(device, accelerometer)
        }
        report(from: previous)
    }

    private func fallBackToPolling() {
        guard case .buffered(let capture, _) = state, let accelerometer else { return }
        pendingRevalidation = nil
        capture.stop()
        let device = capture.device
        fellBack = true
        let previous = status
        state = .absent
        state = startPolling(device, accelerometer)
        report(from: previous)
    }

    private static func seconds(_ value: Double) -> String {
        let tenths = (value.magnitude * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
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
        pendingRevalidation = nil
        revalidated = false
        usableAtRevalidation = nil
        anomaly = nil
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
    /// Hand on readings of zeros and clipped ones too (for recording); they are still logged and count as silence.
    public var handsOnImplausibleReadings = false

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
