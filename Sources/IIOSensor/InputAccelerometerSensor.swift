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
    private enum State {
        /// Not wanted: nobody generating.
        case stopped
        /// Wanted, but there is no input accelerometer.
        case absent
        /// Capturing: the node is open and watched.
        case capturing(InputAccelerometerDevice)
        /// Wanted, but the node could not be read; retried by the timer.
        case failed(retry: TimerSource?)
        /// Closed by its owner: stopped for good, it tells its delegate nothing any more.
        case closed
    }

    private let loop: EventLoop
    private let options: SensorOptions
    private let logger: Logger
    private unowned let delegate: any AccelerometerSensorDelegate
    private var state = State.stopped
    private var monitor: HotplugMonitor?
    private var pendingDiscovery: TimerSource?
    /// The first reading (the values held at the open), or a failure, handed on at the loop's next turn.
    private var pendingAction: TimerSource?
    private var consecutiveFailures = 0

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
    public var status: SensorState {
        switch state {
        case .stopped, .closed: .stopped
        case .absent: .absent
        case .capturing: .active
        case .failed: .failed
        }
    }

    /// How it reads now: `evdev` while capturing, else nil.
    public var mode: CaptureMode? {
        guard case .capturing = state else { return nil }
        return .evdev
    }

    /// Starts capture (or waits for a device if there is none). Does nothing if already started, or closed.
    public func start() {
        guard case .stopped = state else { return }
        consecutiveFailures = 0
        attempt()
    }

    /// Stops capture and closes the node; a change of status is reported.
    public func stop() {
        guard !isClosed else { return }
        let previous = status
        tearDown()
        state = .stopped
        report(from: previous)
    }

    /// Stops for good, closes the node and stops listening for hotplug, telling the delegate nothing.
    public func close() {
        tearDown()
        state = .closed
        monitor = nil
        pendingDiscovery = nil
    }

    /// Notes the pace: the driver sets the rate of an input accelerometer, so nothing changes.
    public func setPace(_ new: SensorPace) {
        pace = new
    }

    /// Looks for the accelerometer without opening it, so that it can be named while stopped.
    public func refreshDiscovery() {
        guard case .stopped = state else { return }
        let discovery = discover()
        if let found = discovery.chosen, found.id != accelerometer?.id {
            logger.info(
                "input accelerometer found",
                metadata: ["device": "\(found.id)", "name": "\(found.name)", "reason": "\(discovery.reason)"]
            )
        }
        accelerometer = discovery.chosen
        delegate.accelerometerDiscoveryChanged(at: .display)
    }

    private var isClosed: Bool {
        if case .closed = state { return true }
        return false
    }

    private var wanted: Bool {
        switch state {
        case .stopped, .closed: false
        case .absent, .capturing, .failed: true
        }
    }

    private func discover() -> InputAccelerometerDiscovery {
        InputAccelerometerDiscovery.discover(uri: options.uri, device: options.device, mountMatrix: options.mountMatrix)
    }

    private func attempt() {
        let previous = status
        tearDown()
        state = begin()
        report(from: previous)
    }

    /// Finds the device and opens it; the state to be in.
    private func begin() -> State {
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
                if case .capturing(let device) = self.state { device.emitCurrent() }
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
    private func failed(_ error: SensorError) -> State {
        lastError = "\(error)"
        consecutiveFailures += 1
        let delay = consecutiveFailures < 5 ? 1.0 : 10.0
        logger.error(
            "the input accelerometer cannot be read, retrying",
            metadata: ["error": "\(error)", "retry_in": "\(Int(delay)) s"]
        )
        let retry = try? loop.addTimer(at: loop.now + delay) { [unowned self] in self.attempt() }
        return .failed(retry: retry)
    }

    /// A reading of the device (the hot path): counted, and handed to the delegate when usable (or when readings of
    /// any quality are wanted).
    func captured(_ sample: Sample, quality: ReadingQuality) {
        samplesRead += 1
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
        guard wanted else { return }
        lastError = "\(error)"
        let previous = status
        tearDown()
        if error.isDeviceGone {
            logger.notice("the input accelerometer is gone", metadata: ["error": "\(error)"])
            state = .absent
        } else {
            state = failed(error)
        }
        report(from: previous)
    }

    private func hotplug(action: HotplugAction, sysname: String) {
        switch action {
        case .remove where sysname == accelerometer?.id && wanted:
            captureFailed(SensorError(.deviceGone, operation: "udev remove", device: sysname))
        case .remove where sysname == accelerometer?.id:
            accelerometer = nil
            delegate.accelerometerDiscoveryChanged(at: .display)
        case .add, .change, .bind:
            guard sysname.hasPrefix("event") else { return }
            if case .stopped = state, accelerometer == nil {
                refreshDiscovery()
                return
            }
            guard case .absent = state else { return }
            pendingDiscovery = try? loop.addTimer(at: loop.now + 0.1) { [unowned self] in
                self.pendingDiscovery = nil
                if case .absent = self.state { self.attempt() }
            }
        case .remove, .unbind, .other:
            break
        }
    }

    /// Closes the node; the caller then sets the state.
    private func tearDown() {
        if case .capturing(let device) = state { device.stop() }
        pendingAction = nil
        pace = .full
    }

    private func report(from previous: SensorState) {
        let current = status
        guard current != previous else { return }
        delegate.accelerometer(at: .display, changedStatusFrom: previous, to: current)
    }
}
