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
import UdevSupport

/// The display accelerometer (or, with ``SensorOptions/location`` `base`, the base one) as a set of sources on the
/// event loop, started and stopped on demand.
///
/// Started, it discovers the display accelerometer, captures through the IIO buffer (falling back to polling when the
/// buffer delivers nothing within ``SensorOptions/pollFallback``), and hands every calibrated sample straight to the
/// one that consumes them, its status to the one that manages it (``SensorRecipients``). Stopped, it leaves nothing that
/// wakes the process and the device as it found it. It follows hotplug: a removed device makes it absent, a returning
/// one is picked up again while it is wanted. Its phases, retries and hotplug are its ``SensorLifecycle``'s; it says how
/// it opens the device and reads it, and its capturing phase (``AccelerometerCapturingPhase``) watches the buffer.
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
    private let options: SensorOptions
    /// Where the samples go (the hot path), and the rest.
    private let reports: SensorRecipients
    /// The phases (capturing: an ``AccelerometerCapturingPhase``), retries and hotplug; made with the sensor.
    private let lifecycle: SensorLifecycle<AccelerometerSensor>
    /// The loop of the sensor's sources, its lifecycle's.
    var loop: EventLoop { lifecycle.loop }
    /// The sensor's log, its lifecycle's.
    var logger: Logger { lifecycle.logger }
    /// Samples handed to the sink since the process started (usable ones only).
    private(set) var usableSamples = 0
    /// The unusable readings (zero or saturated) since the last usable one.
    private var implausible = ImplausibleRun()
    /// The reason a base accelerometer was last refused for, so that it is said once.
    private var warnedRejection: String?
    /// Whether the driver refused the idle pace's sampling frequency: buffered captures then stay at the full rate.
    private var frequencyRefused = false

    /// Consecutive samples this far apart (seconds) mean the clock jumped: a suspend, or the clock was set.
    public static let clockJump = 5.0
    /// Failing reads in poll mode for this long (seconds) make the sensor `failed`.
    static let readFailureLimit = 5.0

    /// The accelerometer in use (or last used).
    public var accelerometer: Accelerometer? { lifecycle.accelerometer }
    /// How it is read now; nil while not capturing.
    public var mode: CaptureMode? { lifecycle.capturing?.capture.mode }
    /// Which accelerometer this sensor reads.
    public var location: SensorLocation { options.location }
    /// Whether polling was chosen because the buffer delivered nothing.
    public private(set) var fellBack = false
    /// The rate asked for, in samples per second.
    public var rate: Double { options.rate }
    /// The pace asked for by ``setPace(_:)``; every start is at the full pace.
    public var pace: SensorPace { lifecycle.pace }
    /// The last error, for diagnostics.
    public var lastError: String? { lifecycle.lastError }
    /// Samples read since the process started, including unusable ones that were not handed on.
    public private(set) var samplesRead = 0

    /// A stopped sensor telling `reports` (its samples, and the rest; held unowned: they outlive the sensor, and its
    /// owner closes it, ``close()``, before letting it go). It listens for hotplug at once (an idle netlink socket
    /// costs no wake-ups).
    public init(loop: EventLoop, options: SensorOptions, logger: Logger, reports: SensorRecipients) {
        self.options = options
        self.reports = reports
        lifecycle = SensorLifecycle(
            .accelerometer,
            loop: loop,
            logger: logger,
            location: options.location,
            delegate: reports.delegate
        )
        lifecycle.attach(self, subsystem: "iio")
    }

    /// The current status (a closed sensor is stopped).
    public var status: SensorState { lifecycle.status }

    /// Whether the sensor, stopped while failed, waits for that failure's retry; its delegate hears when it is due, as
    /// a discovery.
    public var awaitsRetry: Bool { lifecycle.awaitsRetry }

    /// Starts capture (or waits for a device if there is none). Does nothing if already started, or closed.
    public func start() {
        lifecycle.start()
    }

    /// Samples at the idle rate while the device is still, at the full rate again at the first sample that moves.
    /// Called by the sensor's owner, which judges the motion; a capture made later (a re-validation, a retry)
    /// starts at the full pace.
    public func setPace(_ new: SensorPace) {
        guard new != lifecycle.pace else { return }
        lifecycle.pace = new
        // `IdleRate=` equal to `Rate=` turns the slowing off: the capture has nothing to change.
        guard options.idleRate < options.rate else { return }
        guard let capturing = lifecycle.capturing, !frequencyRefused else { return }
        let accepted = capturing.capture.setPace(new)
        capturing.followGate()
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
        lifecycle.stop()
    }

    /// Stops capture for good, restores the device and stops listening for hotplug, telling its sink and its delegate
    /// nothing more: for an owner that replaces this sensor (new options) or shuts down. Nothing it does starts it
    /// again.
    public func close() {
        lifecycle.close()
    }

    /// Looks for the accelerometer without starting it, so that it can be named while stopped.
    public func refreshDiscovery() {
        // (A closed sensor is not stopped: it looks for nothing.)
        guard lifecycle.isStopped else { return }
        do {
            let discovery = try AccelerometerDiscovery.discover(
                uri: options.uri,
                device: options.device,
                mountMatrix: options.mountMatrix
            )
            var (found, reason) = pick(discovery)
            found = found.map(raiseSlowFrequency)
            lifecycle.accelerometer = found
            if let found {
                var details = metadata(found)
                details["reason"] = "\(reason)"
                logger.info("accelerometer found", metadata: details)
            } else {
                logger.notice("no accelerometer yet", metadata: ["reason": "\(reason)"])
            }
        } catch {
            lifecycle.accelerometer = nil
            logger.notice("no accelerometer yet", metadata: ["error": "\(error)"])
        }
        reports.delegate.discoveryChanged(at: options.location)
    }

    /// The accelerometer of ``SensorOptions/location`` and why; a base one that cannot be trusted is said once as
    /// a warning.
    private func pick(_ discovery: AccelerometerDiscovery) -> (Accelerometer?, String) {
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
    private func raiseSlowFrequency(_ found: Accelerometer) -> Accelerometer {
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

/// How an ``AccelerometerSensor`` opens its device: a fresh discovery, then the buffer, else polling.
extension AccelerometerSensor: SensorDriver {
    /// Discovers the device and starts capturing; the phase to enter.
    func open() -> SensorOpening<AccelerometerCapturingPhase> {
        // Readings of the previous capture say nothing of this one's.
        implausible = ImplausibleRun()
        // A fresh context each time: a context is a snapshot, and devices come and go.
        let context: IIOContext
        do {
            context = try IIOContext(uri: options.uri)
        } catch {
            return .absent(reason: "\(error)")
        }
        let discovery = AccelerometerDiscovery.discover(
            in: context,
            udev: try? Udev(),
            device: options.device,
            mountMatrix: options.mountMatrix
        )
        let (found, reason) = pick(discovery)
        guard let found, let device = context.device(named: found.id) else {
            return .absent(reason: reason)
        }
        // Raised before the capture saves the device's settings: it puts back the raised rate.
        let chosen = raiseSlowFrequency(found)
        lifecycle.accelerometer = chosen
        for warning in chosen.warnings {
            logger.warning(
                "the accelerometer's attributes",
                metadata: ["device": "\(chosen.id)", "problem": "\(warning)"]
            )
        }
        fellBack = false
        if chosen.canBuffer && !options.forcePolling, let buffered = startBuffered(device, chosen) {
            return buffered
        }
        return startPolling(device, chosen)
    }

    /// Captures through the buffer, looked at by a timer every half of `PollFallbackSec=`; nil (and
    /// `fellBack`) when the buffer cannot be set up. `revalidation`: enabled again by a re-validation.
    private func startBuffered(
        _ device: IIODevice,
        _ chosen: Accelerometer,
        revalidation: Bool = false
    ) -> SensorOpening<AccelerometerCapturingPhase>? {
        do {
            let capture = try BufferedCapture(
                device: device,
                accelerometer: chosen,
                rate: options.rate,
                idleRate: options.idleRate,
                loop: loop,
                logger: logger,
                owner: self
            )
            let watch = BufferWatch(
                settings: BufferWatch.Settings(
                    clockJump: Self.clockJump,
                    rate: options.rate,
                    pollFallback: options.pollFallback,
                    gate: capture.gate
                ),
                usable: usableSamples,
                asleepOffset: asleepOffset,
                revalidation: revalidation ? usableSamples : nil
            )
            var details = metadata(chosen)
            if let gate = capture.gate { details["motion_gate"] = "\(gate.description)" }
            logger.info("capturing through the buffer", metadata: details)
            return .capturing(
                AccelerometerCapturingPhase(
                    buffered: capture,
                    watch: watch,
                    pollFallback: options.pollFallback,
                    sensor: self
                )
            )
        } catch {
            var details = metadata(chosen)
            details["error"] = "\(error)"
            logger.warning("buffered capture failed, polling instead", metadata: details)
            fellBack = true
            return nil
        }
    }

    /// Polls the raw attributes on a timer; failed (retried) when they cannot be opened.
    private func startPolling(
        _ device: IIODevice,
        _ chosen: Accelerometer
    ) -> SensorOpening<AccelerometerCapturingPhase> {
        do {
            let capture = try PolledCapture(
                device: device,
                accelerometer: chosen,
                rate: options.rate,
                idleRate: options.idleRate,
                loop: loop,
                logger: logger,
                giveUpAfter: Self.readFailureLimit,
                owner: self
            )
            logger.info("polling the accelerometer", metadata: metadata(chosen))
            return .capturing(AccelerometerCapturingPhase(polled: capture, sensor: self))
        } catch {
            return .failed(error)
        }
    }

    /// udev changed the device (`udevadm trigger` after a new hwdb entry): a new `ACCEL_MOUNT_MATRIX` is taken without
    /// a restart of the daemon; while capturing, the capture starts again with it. A configured matrix wins anyway.
    func deviceChanged() -> Bool {
        guard options.mountMatrix == nil, let current = accelerometer else { return true }
        if lifecycle.isStopped {
            refreshDiscovery()
            return true
        }
        lifecycle.capturing?.checkMatrixAtNextTurn(current)
        return true
    }

    /// The matrix of `current`, the device captured, looked at again after a `change` uevent: a new one makes the
    /// sensor capture again with it.
    func recaptureIfMatrixChanged(_ current: Accelerometer) {
        guard
            let found = try? AccelerometerDiscovery.discover(uri: options.uri, device: current.id)
                .accelerometers.first(where: { $0.id == current.id }),
            found.calibration.matrix != accelerometer?.calibration.matrix
        else { return }
        logger.notice(
            "the mount matrix changed: capturing again with it",
            metadata: [
                "device": "\(current.id)", "was": "\(current.calibration.matrix)",
                "matrix": "\(found.calibration.matrix)", "matrix_source": "\(found.matrixSource)",
            ]
        )
        lifecycle.attempt()
    }

    /// Replaces the capture of `device` (the buffer's watch said so): `revalidating`, the buffer is disabled and
    /// enabled again, and one that cannot be set up again is replaced by polling at once; else it is polled instead
    /// (``fellBack``).
    func recapture(_ device: IIODevice, _ accelerometer: Accelerometer, revalidating: Bool) {
        if revalidating {
            lifecycle.reopen {
                startBuffered(device, accelerometer, revalidation: true) ?? startPolling(device, accelerometer)
            }
        } else {
            fellBack = true
            lifecycle.reopen { startPolling(device, accelerometer) }
        }
    }
}

/// What an ``AccelerometerSensor``'s capture reports: readings (the hot path), passing trouble, and its end.
extension AccelerometerSensor {
    /// A reading of the capture (the hot path): counts, has the watch check the gap to the previous sample (no
    /// clock read: the samples carry their time), and hands usable samples to the sink.
    /// `gated`: read through a motion gate, which holds back the scans of a still device (any gap is no jump).
    func captured(_ sample: Sample, quality: ReadingQuality, gated: Bool = false) {
        samplesRead += 1
        lifecycle.capturing?.sampled(at: sample.time, gated: gated)
        guard quality == .usable else {
            if let what = implausible.read(quality, at: sample.time) { noteImplausible(what) }
            if options.handsOnImplausibleReadings {
                reports.samples.take(sample, from: options.location)
            }
            return
        }
        usableSamples += 1
        lifecycle.capturing?.deliveredUsable()
        lifecycle.delivered()
        if implausible.ended() {
            logger.notice(
                "the accelerometer's readings are plausible again",
                metadata: ["device": "\(accelerometer?.id ?? "?")"]
            )
        }
        reports.samples.take(sample, from: options.location)
    }

    /// A read of the capture failed; it goes on reading, and the next good read recovers.
    func captureHadTrouble(_ error: SensorError) {
        lifecycle.lastError = "\(error)"
    }

    /// The capture ended: a device gone makes the sensor absent, another error failed (retried).
    func captureFailed(_ error: SensorError) {
        lifecycle.captureFailed(error)
    }

    /// A run of readings of zeros or clipped ones lasted a second (``ImplausibleRun``): `what` is wrong, said once.
    private func noteImplausible(_ what: String) {
        lifecycle.lastError = "\(accelerometer?.id ?? "accelerometer"): \(what): readings ignored"
        logger.warning(
            "implausible readings ignored until they are plausible again",
            metadata: ["device": "\(accelerometer?.id ?? "?")", "problem": "\(what)"]
        )
    }
}
