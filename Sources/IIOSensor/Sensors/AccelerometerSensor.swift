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

public import EventLoop
public import Logging
public import OrientationCore

/// The display accelerometer (or, with ``SensorOptions/location`` `base`, the base one) as a set of sources on the
/// event loop, started and stopped on demand.
///
/// Started, it discovers the display accelerometer, captures through the IIO buffer (falling back to polling when the
/// buffer delivers nothing within ``SensorOptions/pollFallback``), and hands every calibrated sample straight to the
/// one that consumes them, its status to the one that manages it (``SensorReports``). Stopped, it leaves nothing that
/// wakes the process and the device as it found it. It follows hotplug: a removed device makes it absent, a returning
/// one is picked up again while it is wanted. Its phases, retries and hotplug are its ``SensorShell``'s; it says how
/// it opens the device (`AccelerometerSensor+Opening.swift`), reads it (`+Readings.swift`) and watches the buffer
/// (`+BufferWatch.swift`).
///
/// Many drivers stop delivering after a suspend. While capturing through the buffer it watches for
/// that at a low rate (``BufferWatch``): a buffer that delivered and then stays silent for
/// `pollFallback` seconds, two consecutive samples more than ``clockJump`` seconds apart, or a
/// suspend (CLOCK_BOOTTIME running ahead of CLOCK_MONOTONIC by more than that) makes it re-validate
/// the sensor: the buffer is disabled and enabled again, and if it then stays silent for
/// `pollFallback` seconds, the sensor is polled instead. Readings of 0 on every axis and clipped
/// readings (an axis at the limit of its range) count as silence, and a run of them is logged once; they reach the
/// sink only when the options hand them on (``SensorOptions/handsOnImplausibleReadings``: `orientd record` and
/// the sensor probe, which show what the sensor reads). While the driver's motion gate (``MotionGate``) holds back
/// the scans of a still device, the buffer is looked at every ``BufferWatch/Settings/gatedLookInterval`` instead,
/// with one scan let through when nothing came since the last look.
public final class AccelerometerSensor {
    let options: SensorOptions
    /// Where the samples go (the hot path), and the rest.
    let reports: SensorReports
    /// The phases (capturing: an ``AccelerometerCapturing``), retries and hotplug; made with the sensor.
    let shell: SensorShell<AccelerometerSensor>
    /// The loop of the sensor's sources, its shell's.
    var loop: EventLoop { shell.loop }
    /// The sensor's log, its shell's.
    var logger: Logger { shell.logger }
    /// Samples handed to the sink since the process started (usable ones only).
    var usableSamples = 0
    /// The unusable readings (zero or saturated) since the last usable one: what, since when, whether logged.
    var anomaly: (quality: ReadingQuality, since: Double, reported: Bool)?
    /// The reason a base accelerometer was last refused for, so that it is said once.
    private var warnedRejection: String?
    /// Whether the driver refused the idle pace's sampling frequency: buffered captures then stay at the full rate.
    private var frequencyRefused = false

    /// Consecutive samples this far apart (seconds) mean the clock jumped: a suspend, or the clock was set.
    public static let clockJump = 5.0
    /// A run of unusable readings this long (sample time, seconds) is logged.
    static let anomalyReportTime = 1.0
    /// Failing reads in poll mode for this long (seconds) make the sensor `failed`.
    static let readFailureLimit = 5.0

    /// The accelerometer in use (or last used).
    public var accelerometer: Accelerometer? { shell.accelerometer }
    /// How it is read now; nil while not capturing.
    public var mode: CaptureMode? { shell.capturing?.capture.mode }
    /// Which accelerometer this sensor reads.
    public var location: SensorLocation { options.location }
    /// Whether polling was chosen because the buffer delivered nothing.
    public internal(set) var fellBack = false
    /// The rate asked for, in samples per second.
    public var rate: Double { options.rate }
    /// The pace asked for by ``setPace(_:)``; every start is at the full pace.
    public var pace: SensorPace { shell.pace }
    /// The last error, for diagnostics.
    public var lastError: String? { shell.lastError }
    /// Samples read since the process started, including unusable ones that were not handed on.
    public internal(set) var samplesRead = 0

    /// A stopped sensor telling `reports` (its samples, and the rest; held unowned: they outlive the sensor, and its
    /// owner closes it, ``close()``, before letting it go). It listens for hotplug at once (an idle netlink socket
    /// costs no wake-ups).
    public init(loop: EventLoop, options: SensorOptions, logger: Logger, reports: SensorReports) {
        self.options = options
        self.reports = reports
        shell = SensorShell(
            .accelerometer,
            loop: loop,
            logger: logger,
            location: options.location,
            delegate: reports.delegate
        )
        shell.attach(self, subsystem: "iio")
    }

    /// The current status (a closed sensor is stopped).
    public var status: SensorState { shell.status }

    /// Whether the sensor, stopped while failed, waits for that failure's retry; its delegate hears when it is due, as
    /// a discovery.
    public var awaitsRetry: Bool { shell.awaitsRetry }

    /// Starts capture (or waits for a device if there is none). Does nothing if already started, or closed.
    public func start() {
        shell.start()
    }

    /// Samples at the idle rate while the device is still, at the full rate again at the first sample that moves.
    /// Called by the sensor's owner, which judges the motion; a capture made later (a re-validation, a retry)
    /// starts at the full pace.
    public func setPace(_ new: SensorPace) {
        guard new != shell.pace else { return }
        shell.pace = new
        // `IdleRate=` equal to `Rate=` turns the slowing off: the capture has nothing to change.
        guard options.idleRate < options.rate else { return }
        guard let capturing = shell.capturing, !frequencyRefused else { return }
        let accepted = capturing.capture.setPace(new)
        followGate()
        guard !accepted, let accelerometer else { return }
        // Said once for this sensor; the capture stays at the full rate.
        frequencyRefused = true
        logger.notice(
            "the sampling frequency cannot be lowered (refused, or none): the full rate while still",
            metadata: metadata(accelerometer)
        )
    }

    /// Stops capture completely and restores the device; a change of status is reported.
    public func stop() {
        shell.stop()
    }

    /// Stops capture for good, restores the device and stops listening for hotplug, telling its sink and its delegate
    /// nothing more: for an owner that replaces this sensor (new options) or shuts down. Nothing it does starts it
    /// again.
    public func close() {
        shell.close()
    }

    /// Looks for the accelerometer without starting it, so that it can be named while stopped.
    public func refreshDiscovery() {
        // (A closed sensor is not stopped: it looks for nothing.)
        guard shell.isStopped else { return }
        do {
            let discovery = try AccelerometerDiscovery.discover(
                uri: options.uri,
                device: options.device,
                mountMatrix: options.mountMatrix
            )
            var (found, reason) = pick(discovery)
            found = found.map(raiseSlowFrequency)
            shell.accelerometer = found
            if let found {
                var details = metadata(found)
                details["reason"] = "\(reason)"
                logger.info("accelerometer found", metadata: details)
            } else {
                logger.notice("no accelerometer yet", metadata: ["reason": "\(reason)"])
            }
        } catch {
            shell.accelerometer = nil
            logger.notice("no accelerometer yet", metadata: ["error": "\(error)"])
        }
        reports.delegate.accelerometerDiscoveryChanged(at: options.location)
    }

    /// The accelerometer of ``SensorOptions/location`` and why; a base one that cannot be trusted is said once as
    /// a warning.
    func pick(_ discovery: AccelerometerDiscovery) -> (Accelerometer?, String) {
        guard options.location == .base else { return (discovery.chosen, discovery.reason) }
        let rejected = discovery.base == nil && discovery.accelerometers.contains { $0.location == .base }
        if rejected, discovery.baseReason != warnedRejection {
            warnedRejection = discovery.baseReason
            logger.warning(
                "the base accelerometer cannot be used: tablet mode does not come from the hinge",
                metadata: ["reason": "\(discovery.baseReason)"]
            )
        }
        return (discovery.base, discovery.baseReason)
    }

    /// The accelerometer found, with a rate below 10 Hz raised (``SamplingFrequencyFloor``) and said.
    func raiseSlowFrequency(_ found: Accelerometer) -> Accelerometer {
        var accelerometer = found
        for raise in SamplingFrequencyFloor.raise(&accelerometer) {
            let details: Logger.Metadata = [
                "device": "\(found.id)", "attribute": "\(raise.attribute)", "was": "\(raise.from)",
                "now": "\(raise.to)",
            ]
            if raise.written {
                logger.info("a sampling frequency below 10 Hz is raised", metadata: details)
            } else {
                logger.warning("cannot raise a sampling frequency below 10 Hz", metadata: details)
            }
        }
        return accelerometer
    }

    /// The accelerometer and the sensor's settings, for the log.
    func metadata(_ accelerometer: Accelerometer) -> Logger.Metadata {
        [
            "device": "\(accelerometer.id)", "name": "\(accelerometer.name)", "rate": "\(options.rate)",
            "matrix": "\(accelerometer.calibration.matrix)", "matrix_source": "\(accelerometer.matrixSource)",
        ]
    }

    /// Time spent suspended so far (CLOCK_BOOTTIME − CLOCK_MONOTONIC, the loop's cached clocks): it grows by the
    /// length of every suspend.
    var asleepOffset: Double { loop.bootTime - loop.now }
}
