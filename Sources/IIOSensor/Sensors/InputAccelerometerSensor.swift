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

/// The display accelerometer of a machine whose accelerometer belongs to the input subsystem (lis3lv02d and the
/// other evdev accelerometers of older laptops), as a set of sources on the event loop, started and stopped on
/// demand; the daemon uses it only while there is no IIO display accelerometer.
///
/// Started, it finds the accelerometer (``InputAccelerometerDiscovery``), opens its evdev node and hands every
/// calibrated reading to its delegate as the display's. Stopped, the node is closed: nothing wakes the process, and a
/// polled driver stops measuring. It follows hotplug: a removed device makes it absent, a returning one is picked up
/// again while it is wanted.
public final class InputAccelerometerSensor {
    /// The phases of the sensor; capturing, the node is open and watched.
    private typealias Lifecycle = SensorLifecycle<InputAccelerometerDevice>

    private let loop: EventLoop
    private let options: SensorOptions
    private let logger: Logger
    private unowned let delegate: any AccelerometerSensorDelegate
    private let lifecycle: Lifecycle
    private var monitor: HotplugMonitor?
    private var pendingDiscovery: TimerSource?
    /// The first reading (the values held at the open), or a failure, handed on at the loop's next turn.
    private var pendingAction: TimerSource?

    /// The accelerometer in use (or last found); its scale is the device's own once it was opened.
    public private(set) var accelerometer: Accelerometer?
    /// The pace asked for last; an input accelerometer reads at its driver's own pace whatever it is.
    public private(set) var pace = SensorPace.full
    /// The last error, for diagnostics.
    public private(set) var lastError: String?
    /// Readings since the process started, including unusable ones that were not handed on.
    public private(set) var samplesRead = 0

    /// A stopped sensor reporting to `delegate` (held unowned: the owner outlives it and closes it before letting it
    /// go). It listens for hotplug of input devices at once (an idle netlink socket costs no wake-ups).
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
        lifecycle = Lifecycle(location: .display, delegate: delegate)
        do {
            monitor = try HotplugMonitor(loop: loop, subsystem: "input") { [unowned self] action, sysname in
                self.hotplug(action: action, sysname: sysname)
            }
        } catch {
            logger.warning("input hotplug is not followed", metadata: ["error": "\(error)"])
        }
    }

    deinit {
        tearDown()
    }

    /// The current status (a closed sensor is stopped).
    public var status: SensorState { lifecycle.status }

    /// How it reads now: `evdev` while capturing, else nil.
    public var mode: CaptureMode? {
        guard case .capturing = lifecycle.phase else { return nil }
        return .evdev
    }

    /// Starts capture (or waits for a device if there is none). Does nothing if already started, or closed.
    public func start() {
        guard case .stopped = lifecycle.phase else { return }
        lifecycle.resetFailures()
        attempt()
    }

    /// Stops capture and closes the node; a change of status is reported.
    public func stop() {
        guard !lifecycle.isClosed else { return }
        tearDown()
        lifecycle.enter(.stopped)
    }

    /// Stops for good, closes the node and stops listening for hotplug, telling the delegate nothing.
    public func close() {
        tearDown()
        lifecycle.close()
        monitor = nil
        pendingDiscovery = nil
    }

    /// Notes the pace: the driver sets the rate of an input accelerometer, so nothing changes.
    public func setPace(_ new: SensorPace) {
        pace = new
    }

    /// Looks for the accelerometer without opening it, so that it can be named while stopped.
    public func refreshDiscovery() {
        guard case .stopped = lifecycle.phase else { return }
        let discovery = discover()
        if let found = discovery.chosen, found.id != accelerometer?.id {
            logger.info(
                "input accelerometer found",
                metadata: ["device": "\(found.id)", "name": "\(found.name)", "reason": "\(discovery.reason)"]
            )
        }
        // A new accelerometer's axes are read once, now, so that its pose is known before anyone generates
        // (iio-sensor-proxy's AccelerometerOrientation); the node is closed again at once and nothing is watched.
        if let found = discovery.chosen, found.id != accelerometer?.id {
            let reading = InputAccelerometerDevice.restingReading(found, matrix: found.calibration.matrix)
            logger.debug(
                "input accelerometer read at discovery",
                metadata: ["reading": "\(reading.map { "\($0)" } ?? "none")"]
            )
            delegate.accelerometer(at: .display, restingReading: reading)
        } else if discovery.chosen == nil, accelerometer != nil {
            delegate.accelerometer(at: .display, restingReading: nil)
        }
        accelerometer = discovery.chosen
        delegate.accelerometerDiscoveryChanged(at: .display)
    }

    private func discover() -> InputAccelerometerDiscovery {
        InputAccelerometerDiscovery.discover(uri: options.uri, device: options.device, mountMatrix: options.mountMatrix)
    }

    private func attempt() {
        tearDown()
        lifecycle.enter(begin())
    }

    /// Finds the device and opens it; the phase to enter.
    private func begin() -> Lifecycle.Phase {
        let discovery = discover()
        guard var chosen = discovery.chosen else {
            lastError = discovery.reason
            logger.debug("no input accelerometer", metadata: ["reason": "\(discovery.reason)"])
            return .absent
        }
        do {
            let device = try InputAccelerometerDevice(
                chosen,
                matrix: chosen.calibration.matrix,
                loop: loop,
                owner: self
            )
            chosen.calibration = device.calibration
            chosen.scaleSource = device.scale.source
            accelerometer = chosen
            for warning in chosen.warnings {
                logger.warning(
                    "the input accelerometer's properties",
                    metadata: ["device": "\(chosen.id)", "problem": "\(warning)"]
                )
            }
            logger.info(
                "reading the input accelerometer",
                metadata: [
                    "device": "\(chosen.id)", "name": "\(chosen.name)", "node": "\(device.devnode)",
                    "counts_per_g": "\(device.scale.countsPerG)", "scale_source": "\(device.scale.source)",
                    "matrix": "\(chosen.calibration.matrix)", "matrix_source": "\(chosen.matrixSource)",
                ]
            )
            // The values the kernel holds now are the first reading, handed on outside start().
            pendingAction = try? loop.addNextTurnAction { [unowned self] in
                self.pendingAction = nil
                if case .capturing(let device) = self.lifecycle.phase { device.emitCurrent() }
            }
            return .capturing(device)
        } catch {
            accelerometer = chosen
            if error.isDeviceGone {
                lastError = "\(error)"
                logger.notice("the input accelerometer is gone", metadata: ["error": "\(error)"])
                return .absent
            }
            return failed(error)
        }
    }

    /// Failed: retry soon, then less often.
    private func failed(_ error: SensorError) -> Lifecycle.Phase {
        lastError = "\(error)"
        let delay = lifecycle.retryDelay()
        logger.error(
            "the input accelerometer cannot be read, retrying",
            metadata: ["error": "\(error)", "retry_in": "\(Int(delay)) s"]
        )
        let retry = try? loop.addTimer(at: loop.now + delay) { [unowned self] in self.attempt() }
        return .failed(retry: retry)
    }

    /// A reading of the device (the hot path): counted, and handed to the delegate when usable (or when readings of
    /// any quality are wanted). A usable one ends a run of failures, so the next failure is retried after 1 s again.
    func captured(_ sample: Sample, quality: ReadingQuality) {
        samplesRead += 1
        if quality == .usable { lifecycle.resetFailures() }
        guard quality == .usable || options.handsOnImplausibleReadings else { return }
        delegate.accelerometer(at: .display, captured: sample)
    }

    /// The device stopped reading (it is gone, or a read failed); acted on at the loop's next turn.
    func deviceFailed(_ error: SensorError) {
        pendingAction = try? loop.addNextTurnAction { [unowned self] in
            self.pendingAction = nil
            self.captureFailed(error)
        }
    }

    private func captureFailed(_ error: SensorError) {
        guard lifecycle.isWanted else { return }
        lastError = "\(error)"
        tearDown()
        if error.isDeviceGone {
            logger.notice("the input accelerometer is gone", metadata: ["error": "\(error)"])
            lifecycle.enter(.absent)
        } else {
            lifecycle.enter(failed(error))
        }
    }

    private func hotplug(action: HotplugAction, sysname: String) {
        switch action {
        case .remove where sysname == accelerometer?.id && lifecycle.isWanted:
            captureFailed(SensorError(.deviceGone, operation: "udev remove", device: sysname))
        case .remove where sysname == accelerometer?.id:
            accelerometer = nil
            delegate.accelerometer(at: .display, restingReading: nil)
            delegate.accelerometerDiscoveryChanged(at: .display)
        case .add, .change, .bind:
            guard sysname.hasPrefix("event") else { return }
            if case .stopped = lifecycle.phase, accelerometer == nil {
                refreshDiscovery()
                return
            }
            guard case .absent = lifecycle.phase else { return }
            pendingDiscovery = try? loop.addTimer(at: loop.now + 0.1) { [unowned self] in
                self.pendingDiscovery = nil
                if case .absent = self.lifecycle.phase { self.attempt() }
            }
        case .remove, .unbind, .other:
            break
        }
    }

    /// Stops watching the node; the caller then enters the next phase, which releases it.
    private func tearDown() {
        if case .capturing(let device) = lifecycle.phase { device.stop() }
        pendingAction = nil
        pace = .full
    }
}
