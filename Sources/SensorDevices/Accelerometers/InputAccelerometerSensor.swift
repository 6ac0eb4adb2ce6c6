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

/// The display accelerometer of a machine whose accelerometer belongs to the input subsystem (lis3lv02d and the
/// other evdev accelerometers of older laptops), as a set of sources on the event loop, started and stopped on
/// demand; the daemon uses it only while there is no IIO display accelerometer.
///
/// Started, it finds the accelerometer (``InputAccelerometerDiscovery``), opens its evdev node and hands every
/// calibrated reading as the display's straight to the one that consumes them, its status to the one that manages it
/// (``SensorRecipients``). Stopped, the node is closed: nothing wakes the process, and a polled driver stops measuring.
/// It follows hotplug: a removed device makes it absent, a returning one is picked up again while it is wanted. Its
/// phases, retries and hotplug are its ``SensorLifecycle``'s; it says how it opens and reads the node.
public final class InputAccelerometerSensor {
    private let options: SensorOptions
    /// Where the samples go (the hot path), and the rest.
    private let reports: SensorRecipients
    /// The phases (capturing: an ``InputAccelerometerCapturingPhase``), retries and hotplug; made with the sensor.
    private let lifecycle: SensorLifecycle<InputAccelerometerSensor>
    /// The loop of the sensor's sources, its lifecycle's.
    private var loop: EventLoop { lifecycle.loop }
    /// The sensor's log, its lifecycle's.
    private var logger: Logger { lifecycle.logger }

    /// The accelerometer in use (or last found); its scale is the device's own once it was opened.
    public var accelerometer: Accelerometer? { lifecycle.accelerometer }
    /// Readings since the process started, including unusable ones that were not handed on.
    public private(set) var samplesRead = 0
    /// The last error, for diagnostics.
    public var lastError: String? { lifecycle.lastError }
    /// The pace asked for last; an input accelerometer reads at its driver's own pace whatever it is.
    public var pace: SensorPace { lifecycle.pace }

    /// A stopped sensor telling `reports` (its samples, and the rest; held unowned: they outlive it, and its owner
    /// closes it before letting it go). It listens for hotplug of input devices at once (an idle netlink socket costs
    /// no wake-ups).
    public init(loop: EventLoop, options: SensorOptions, logger: Logger, reports: SensorRecipients) {
        lifecycle = SensorLifecycle(
            .inputAccelerometer,
            loop: loop,
            logger: logger,
            location: .display,
            delegate: reports.delegate
        )
        self.options = options
        self.reports = reports
        lifecycle.attach(self, subsystem: "input")
    }

    /// The current status (a closed sensor is stopped).
    public var status: SensorState { lifecycle.status }

    /// Whether the sensor, stopped while failed, waits for that failure's retry; its delegate hears when it is due, as
    /// a discovery.
    public var awaitsRetry: Bool { lifecycle.awaitsRetry }

    /// How it reads now: `evdev` while capturing, else nil.
    public var mode: CaptureMode? { lifecycle.capturing == nil ? nil : .evdev }

    /// Starts capture (or waits for a device if there is none). Does nothing if already started, or closed.
    public func start() {
        lifecycle.start()
    }

    /// Stops capture and closes the node; a change of status is reported.
    public func stop() {
        lifecycle.stop()
    }

    /// Stops for good, closes the node and stops listening for hotplug, telling its sink and its delegate nothing
    /// more.
    public func close() {
        lifecycle.close()
    }

    /// Notes the pace: the driver sets the rate of an input accelerometer, so nothing changes.
    public func setPace(_ new: SensorPace) {
        lifecycle.pace = new
    }

    /// Looks for the accelerometer without opening it, so that it can be named while stopped.
    public func refreshDiscovery() {
        guard lifecycle.isStopped else { return }
        let discovery = discover()
        if let found = discovery.chosen, found.id != accelerometer?.id {
            logger.info(
                "input accelerometer found",
                metadata: ["device": "\(found.id)", "name": "\(found.name)", "reason": "\(discovery.reason)"]
            )
        }
        lifecycle.accelerometer = discovery.chosen
        reports.delegate.discoveryChanged(at: .display)
    }

    private func discover() -> InputAccelerometerDiscovery {
        InputAccelerometerDiscovery.discover(uri: options.uri, device: options.device, mountMatrix: options.mountMatrix)
    }

    /// A reading of the device (the hot path): counted, and handed to the sink when usable (or when readings of
    /// any quality are wanted). A usable one ends a run of failures, so the next failure is retried after 1 s again.
    func captured(_ sample: Sample, quality: ReadingQuality) {
        samplesRead += 1
        if quality == .usable { lifecycle.delivered() }
        guard quality == .usable || options.handsOnImplausibleReadings else { return }
        reports.samples.take(sample, from: .display)
    }

    /// The device stopped reading (it is gone, or a read failed); acted on at the loop's next turn.
    func deviceFailed(_ error: SensorError) {
        lifecycle.capturing?.pendingAction = try? loop.addNextTurnAction { [unowned self] in
            self.lifecycle.captureFailed(error)
        }
    }
}

/// How an ``InputAccelerometerSensor`` opens its evdev node.
extension InputAccelerometerSensor: SensorDriver {
    /// Only event nodes can be the accelerometer (not `js0` or the parent `input5`).
    func concerns(_ sysname: String) -> Bool {
        sysname.hasPrefix("event")
    }

    /// Finds the device and opens it; the phase to enter.
    func open() -> SensorOpening<InputAccelerometerCapturingPhase> {
        let discovery = discover()
        guard var chosen = discovery.chosen else { return .absent(reason: discovery.reason) }
        do {
            let device = try InputAccelerometerDevice(
                chosen,
                matrix: chosen.calibration.matrix,
                pollInterval: 1 / options.rate,
                loop: loop,
                owner: self
            )
            chosen.calibration = device.calibration
            chosen.scaleSource = device.scale.source
            lifecycle.accelerometer = chosen
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
            let capturing = InputAccelerometerCapturingPhase(device: device)
            // The values the kernel holds now are the first reading, handed on outside start().
            capturing.pendingAction = try? loop.addNextTurnAction { [unowned self] in
                self.lifecycle.capturing?.device.emitCurrent()
            }
            return .capturing(capturing)
        } catch {
            lifecycle.accelerometer = chosen
            return error.isDeviceGone ? .gone(error) : .failed(error)
        }
    }
}
