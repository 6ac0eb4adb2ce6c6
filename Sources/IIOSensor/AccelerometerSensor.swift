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
/// Started, it discovers the display accelerometer, captures through the IIO buffer (falling back
/// to polling when the buffer delivers nothing within ``SensorOptions/pollFallback``), and hands
/// every calibrated sample to its delegate. Stopped, it leaves nothing that wakes the process and the
/// device as it found it. It follows hotplug: a removed device makes it absent, a returning one
/// is picked up again while it is wanted.
///
/// Many drivers stop delivering after a suspend. While capturing through the buffer it watches for
/// that at a low rate (``BufferWatch``): a buffer that delivered and then stays silent for
/// `pollFallback` seconds, two consecutive samples more than ``clockJump`` seconds apart, or a
/// suspend (CLOCK_BOOTTIME running ahead of CLOCK_MONOTONIC by more than that) makes it re-validate
/// the sensor: the buffer is disabled and enabled again, and if it then stays silent for
/// `pollFallback` seconds, the sensor is polled instead. Readings of 0 on every axis and clipped
/// readings (an axis at the limit of its range) count as silence, and a run of them is logged once; they reach the
/// delegate only when the options hand them on (``SensorOptions/handsOnImplausibleReadings``: `orientd record` and
/// the sensor probe, which show what the sensor reads). While the driver's motion gate (``MotionGate``) holds back the scans of a still
/// device, the buffer is looked at every ``BufferWatch/Settings/gatedLookInterval`` instead, with one scan let
/// through when nothing came since the last look.
public final class AccelerometerSensor {
    /// The phases of the sensor; capturing, a capture through the buffer is judged by its watch (and looked at by
    /// ``bufferLooks``).
    private typealias Lifecycle = SensorLifecycle<(capture: any Capture, watch: BufferWatch?)>

    private let loop: EventLoop
    private let options: SensorOptions
    private let logger: Logger
    private unowned let delegate: any AccelerometerSensorDelegate
    private let lifecycle: Lifecycle
    /// The repeating look at a buffer that delivers (``lookAtBuffer()``); only while capturing through the buffer.
    private var bufferLooks: TimerSource?
    /// Whether the looks follow a capture whose motion gate holds back the scans of a still device: then they are
    /// ``BufferWatch/Settings/gatedLookInterval`` apart, and a silent one lets a scan through (a probe).
    private var looksGated = false
    /// The end of a probe: `PollFallbackSec=` after it, unless a usable sample came first.
    private var probeCheck: TimerSource?
    private var monitor: HotplugMonitor?
    private var pendingDiscovery: TimerSource?
    /// Samples handed to the sink since the process started (usable ones only).
    private var usableSamples = 0
    /// A re-validation asked for from inside the capture's callback, run at the next loop iteration.
    private var pendingRevalidation: TimerSource?
    /// A look at the matrix after a `change` uevent of the device (a hwdb entry applied), at the loop's next turn.
    private var pendingMatrixCheck: TimerSource?
    /// The unusable readings (zero or saturated) since the last usable one: what, since when, whether logged.
    private var anomaly: (quality: ReadingQuality, since: Double, reported: Bool)?
    /// The reason a base accelerometer was last refused for, so that it is said once.
    private var warnedRejection: String?

    /// Consecutive samples this far apart (seconds) mean the clock jumped: a suspend, or the clock was set.
    public static let clockJump = 5.0
    /// A run of unusable readings this long (sample time, seconds) is logged.
    static let anomalyReportTime = 1.0
    /// Failing reads in poll mode for this long (seconds) make the sensor `failed`.
    static let readFailureLimit = 5.0

    /// The accelerometer in use (or last used).
    public private(set) var accelerometer: Accelerometer?
    /// How it is read now; nil while not capturing.
    public var mode: CaptureMode? {
        guard case .capturing(let capturing) = lifecycle.phase else { return nil }
        return capturing.capture.mode
    }
    /// Which accelerometer this sensor reads.
    public var location: SensorLocation { options.location }
    /// Whether polling was chosen because the buffer delivered nothing.
    public private(set) var fellBack = false
    /// The rate asked for, in samples per second.
    public var rate: Double { options.rate }
    /// The pace asked for by ``setPace(_:)``; every start is at the full pace.
    public private(set) var pace = SensorPace.full
    /// Whether the driver refused the idle pace's sampling frequency: buffered captures then stay at the full rate.
    private var frequencyRefused = false
    /// The last error, for diagnostics.
    public private(set) var lastError: String?
    /// Samples read since the process started, including unusable ones that were not handed on.
    public private(set) var samplesRead = 0

    /// A stopped sensor reporting to `delegate`, which it holds unowned: the owner outlives its sensors, and closes
    /// them (``close()``) before it lets them go. It listens for hotplug at once (an idle netlink socket costs no
    /// wake-ups).
    public init(
        loop: EventLoop,
        options: SensorOptions,
        logger: Logger,
        delegate: any AccelerometerSensorDelegate
    ) {
        self.loop = loop
        self.options = options
        self.logger = logger
        self.delegate = delegate
        lifecycle = Lifecycle(location: options.location, delegate: delegate)
        do {
            monitor = try HotplugMonitor(loop: loop, subsystem: "iio") { [unowned self] action, sysname in
                self.hotplug(action: action, sysname: sysname)
            }
        } catch {
            logger.warning("hotplug is not followed", metadata: ["error": "\(error)"])
        }
    }

    deinit {
        tearDown()
    }

    /// The current status (a closed sensor is stopped).
    public var status: SensorState { lifecycle.status }

    /// Starts capture (or waits for a device if there is none). Does nothing if already started, or closed.
    public func start() {
        guard case .stopped = lifecycle.phase else { return }
        lifecycle.resetFailures()
        attempt()
    }

    /// Samples at the idle rate while the device is still, at the full rate again at the first sample that moves.
    /// Called by the sensor's owner, which judges the motion; a capture made later (a re-validation, a retry)
    /// starts at the full pace.
    public func setPace(_ new: SensorPace) {
        guard new != pace else { return }
        pace = new
        // `IdleRate=` equal to `Rate=` turns the slowing off: the capture has nothing to change.
        guard options.idleRate < options.rate else { return }
        guard case .capturing(let capturing) = lifecycle.phase, !frequencyRefused else { return }
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
        guard !lifecycle.isClosed else { return }
        tearDown()
        lifecycle.enter(.stopped)
    }

    /// Stops capture for good, restores the device and stops listening for hotplug, telling the delegate nothing:
    /// for an owner that replaces this sensor (new options) or shuts down. Nothing it does starts it again.
    public func close() {
        tearDown()
        lifecycle.close()
        monitor = nil
        pendingDiscovery = nil
    }

    /// Looks for the accelerometer without starting it, so that it can be named while stopped.
    public func refreshDiscovery() {
        guard case .stopped = lifecycle.phase else { return }
        // (A closed sensor is not `.stopped`: it looks for nothing.)
        do {
            let discovery = try AccelerometerDiscovery.discover(
                uri: options.uri,
                device: options.device,
                mountMatrix: options.mountMatrix
            )
            let (found, reason) = pick(discovery)
            accelerometer = found
            if let found {
                var details = metadata(found)
                details["reason"] = "\(reason)"
                logger.info("accelerometer found", metadata: details)
            } else {
                logger.notice("no accelerometer yet", metadata: ["reason": "\(reason)"])
            }
        } catch {
            accelerometer = nil
            logger.notice("no accelerometer yet", metadata: ["error": "\(error)"])
        }
        delegate.accelerometerDiscoveryChanged(at: options.location)
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

    private func attempt() {
        tearDown()
        lifecycle.enter(begin())
    }

    /// Discovers the device and starts capturing; the phase to enter.
    private func begin() -> Lifecycle.Phase {
        // A fresh context each time: a context is a snapshot, and devices come and go.
        let context: IIOContext
        do {
            context = try IIOContext(uri: options.uri)
        } catch {
            lastError = "\(error)"
            logger.notice("no accelerometer", metadata: ["error": "\(error)"])
            return .absent
        }
        let discovery = AccelerometerDiscovery.discover(
            in: context,
            udev: try? Udev(),
            device: options.device,
            mountMatrix: options.mountMatrix
        )
        let (found, reason) = pick(discovery)
        guard let chosen = found, let device = context.device(named: chosen.id) else {
            lastError = reason
            logger.notice("no accelerometer", metadata: ["reason": "\(reason)"])
            return .absent
        }
        accelerometer = chosen
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
    ) -> Lifecycle.Phase? {
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
            bufferLooks = try? loop.addRepeatingTimer(interval: options.pollFallback / 2) { [unowned self] in
                self.lookAtBuffer()
            }
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
            looksGated = false
            probeCheck = nil
            return .capturing((capture, watch: watch))
        } catch {
            var details = metadata(chosen)
            details["error"] = "\(error)"
            logger.warning("buffered capture failed, polling instead", metadata: details)
            fellBack = true
            return nil
        }
    }

    private func startPolling(_ device: IIODevice, _ chosen: Accelerometer) -> Lifecycle.Phase {
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
            return .capturing((capture, watch: nil))
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

    /// Time spent suspended so far (CLOCK_BOOTTIME − CLOCK_MONOTONIC, the loop's cached clocks): it grows by the
    /// length of every suspend.
    private var asleepOffset: Double { loop.bootTime - loop.now }

    /// A reading of the capture (the hot path): counts, has the watch check the gap to the previous sample (no
    /// clock read: the samples carry their time), and hands usable samples to the delegate.
    /// `gated`: read through a motion gate, which holds back the scans of a still device (any gap is no jump).
    func captured(_ sample: Sample, quality: ReadingQuality, gated: Bool = false) {
        samplesRead += 1
        if case .capturing((let capture, var watch?)) = lifecycle.phase {
            let jump = watch.sample(at: sample.time, gated: gated)
            lifecycle.update((capture, watch: watch))
            if let jump, pendingRevalidation == nil {
                // Not from inside the capture's delivery, which the re-validation replaces: at the next loop turn.
                pendingRevalidation = try? loop.addNextTurnAction { [unowned self] in
                    self.pendingRevalidation = nil
                    guard case .capturing((_, let watch?)) = self.lifecycle.phase else { return }
                    self.act(on: watch.revalidation(because: jump, usable: self.usableSamples))
                }
            }
        }
        guard quality == .usable else {
            unusable(sample, quality)
            if options.handsOnImplausibleReadings { delegate.accelerometer(at: options.location, captured: sample) }
            return
        }
        usableSamples += 1
        if probeCheck != nil { probeCheck = nil }
        lifecycle.resetFailures()
        if anomaly != nil { anomalyEnded() }
        delegate.accelerometer(at: options.location, captured: sample)
    }

    /// A read of the capture failed; it goes on reading, and the next good read recovers.
    func captureHadTrouble(_ error: SensorError) {
        lastError = "\(error)"
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
            "implausible readings ignored until they are plausible again",
            metadata: ["device": "\(accelerometer?.id ?? "?")", "problem": "\(what)"]
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

    /// Looks at the buffer at the pace of the capture's gate: every `PollFallbackSec=` / 2 while scans flow, every
    /// ``BufferWatch/Settings/gatedLookInterval`` while the gate holds them back. Called after every change of pace.
    private func followGate() {
        guard case .capturing((let capture, var watch?)) = lifecycle.phase else { return }
        let gated = capture.motionGated
        guard gated != looksGated else { return }
        looksGated = gated
        probeCheck = nil
        watch.gateChanged(usable: usableSamples)
        lifecycle.update((capture, watch: watch))
        // Gated, a look may come a second late: the kernel then wakes the process once for the looks of both
        // sensors of a convertible, paced together (and for any other timer due then).
        let interval = gated ? watch.settings.gatedLookInterval : options.pollFallback / 2
        bufferLooks = try? loop.addRepeatingTimer(interval: interval, accuracy: gated ? 1 : 0.001) {
            [unowned self] in self.lookAtBuffer()
        }
    }

    /// A look at the buffer, every `PollFallbackSec=` / 2 while capturing through it (gated, less often): no syscall
    /// but the loop's cached clocks. The watch decides.
    private func lookAtBuffer() {
        guard case .capturing((let capture, var watch?)) = lifecycle.phase else { return }
        let verdict =
            looksGated
            ? watch.gatedLook(usable: usableSamples, asleepOffset: asleepOffset)
            : watch.look(usable: usableSamples, asleepOffset: asleepOffset)
        lifecycle.update((capture, watch: watch))
        act(on: verdict)
    }

    /// Carries out the watch's verdict on the buffer captured now.
    private func act(on verdict: BufferWatch.Verdict) {
        guard case .capturing((let capture, _?)) = lifecycle.phase, let accelerometer else { return }
        switch verdict {
        case .keep:
            return
        case .probe:
            // One scan through the gate; none within `PollFallbackSec=`: the buffer is silent.
            logger.debug(
                "no scan since the last look: one let through the motion gate",
                metadata: metadata(accelerometer)
            )
            capture.probe()
            probeCheck = try? loop.addTimer(at: loop.now + options.pollFallback) { [unowned self] in
                self.probeCheck = nil
                guard case .capturing((let capture, var watch?)) = self.lifecycle.phase else { return }
                let verdict = watch.probeEnded(usable: self.usableSamples)
                self.lifecycle.update((capture, watch: watch))
                self.act(on: verdict)
            }
        case .revalidate(let cause):
            // Disables and enables the buffer again (the fix for drivers that stop after a resume); a buffer
            // that cannot be set up again is replaced by polling at once.
            pendingRevalidation = nil
            var details = metadata(accelerometer)
            details["reason"] = "\(explain(cause))"
            logger.info("disabling and enabling the buffer again", metadata: details)
            capture.stop()
            bufferLooks = nil
            looksGated = false
            probeCheck = nil
            pace = .full
            lifecycle.enter(
                startBuffered(capture.device, accelerometer, revalidation: true)
                    ?? startPolling(capture.device, accelerometer)
            )
        case .fallBack(let cause):
            var details = metadata(accelerometer)
            details["reason"] = "\(explain(cause))"
            logger.warning("the buffer does not deliver: polling instead", metadata: details)
            pendingRevalidation = nil
            capture.stop()
            bufferLooks = nil
            looksGated = false
            probeCheck = nil
            fellBack = true
            pace = .full
            lifecycle.enter(startPolling(capture.device, accelerometer))
        }
    }

    /// Why the buffer is re-validated or replaced, in words for the log.
    private func explain(_ cause: BufferWatch.Cause) -> String {
        let fallback = Self.seconds(options.pollFallback)
        return switch cause {
        case .suspended(let seconds): "the system was suspended for \(Self.seconds(seconds)) s"
        case .clockJumped(let seconds):
            "the clock jumped by \(Self.seconds(seconds)) s between two samples (a suspend?)"
        case .silent: "the buffer delivered nothing usable for \(fallback) s"
        case .neverDelivered: "the buffer delivered no scan within \(fallback) s"
        case .silentAfterRevalidation: "the buffer stayed silent for \(fallback) s after it was enabled again"
        case .againSoonAfterRevalidation(let cause):
            "\(explain(cause)), again soon after the buffer was enabled again"
        }
    }

    private static func seconds(_ value: Double) -> String {
        let tenths = (value.magnitude * 10).rounded() / 10
        return tenths == tenths.rounded() ? String(Int(tenths)) : String(tenths)
    }

    /// The capture ended: a device gone makes the sensor absent, another error failed (retried).
    func captureFailed(_ error: SensorError) {
        guard lifecycle.isWanted else { return }
        lastError = "\(error)"
        tearDown()
        if error.isDeviceGone {
            logger.notice("the accelerometer is gone", metadata: ["error": "\(error)"])
            lifecycle.enter(.absent)
        } else {
            lifecycle.enter(failed(error))
        }
    }

    /// Failed: retry soon, then less often.
    private func failed(_ error: SensorError) -> Lifecycle.Phase {
        lastError = "\(error)"
        let delay = lifecycle.retryDelay()
        logger.error(
            "accelerometer capture failed, retrying",
            metadata: ["error": "\(error)", "retry_in": "\(Self.seconds(delay)) s"]
        )
        let retry = try? loop.addTimer(at: loop.now + delay) { [unowned self] in self.attempt() }
        return .failed(retry: retry)
    }

    private func hotplug(action: HotplugAction, sysname: String) {
        logger.debug("udev event", metadata: ["action": "\(action)", "device": "\(sysname)"])
        switch action {
        case .remove where sysname == accelerometer?.id && lifecycle.isWanted:
            captureFailed(SensorError(.deviceGone, operation: "udev remove", device: sysname))
        case .remove where sysname == accelerometer?.id:
            accelerometer = nil
            delegate.accelerometerDiscoveryChanged(at: options.location)
        case .add, .change, .bind:
            if case .stopped = lifecycle.phase, accelerometer == nil {
                refreshDiscovery()
                return
            }
            if action == .change, sysname == accelerometer?.id {
                matrixMayHaveChanged()
                return
            }
            guard case .absent = lifecycle.phase else { return }
            // Let the device settle (attributes appear with the event), then look again.
            pendingDiscovery = try? loop.addTimer(at: loop.now + 0.1) { [unowned self] in
                self.pendingDiscovery = nil
                if case .absent = self.lifecycle.phase { self.attempt() }
            }
        case .remove, .unbind, .other:
            break
        }
    }

    /// udev changed the device (`udevadm trigger` after a new hwdb entry): a new `ACCEL_MOUNT_MATRIX` is taken without
    /// a restart of the daemon; while capturing, the capture starts again with it. A configured matrix wins anyway.
    private func matrixMayHaveChanged() {
        guard options.mountMatrix == nil, let current = accelerometer else { return }
        if case .stopped = lifecycle.phase {
            refreshDiscovery()
            return
        }
        guard case .capturing = lifecycle.phase, pendingMatrixCheck == nil else { return }
        pendingMatrixCheck = try? loop.addNextTurnAction { [unowned self] in
            self.pendingMatrixCheck = nil
            guard case .capturing = self.lifecycle.phase,
                let found = try? AccelerometerDiscovery.discover(uri: self.options.uri, device: current.id)
                    .accelerometers.first(where: { $0.id == current.id }),
                found.calibration.matrix != self.accelerometer?.calibration.matrix
            else { return }
            self.logger.notice(
                "the mount matrix changed: capturing again with it",
                metadata: [
                    "device": "\(current.id)", "was": "\(current.calibration.matrix)",
                    "matrix": "\(found.calibration.matrix)", "matrix_source": "\(found.matrixSource)",
                ]
            )
            self.attempt()
        }
    }

    /// Stops the capture and releases the timers that belong to no phase; the caller then enters the next phase,
    /// which releases the sources of the old one.
    private func tearDown() {
        if case .capturing(let capturing) = lifecycle.phase { capturing.capture.stop() }
        bufferLooks = nil
        looksGated = false
        probeCheck = nil
        pace = .full
        pendingRevalidation = nil
        pendingMatrixCheck = nil
        anomaly = nil
    }
}
