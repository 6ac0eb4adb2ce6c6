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

import EventLoop
import Logging
import OrientationCore
import UdevSupport

/// The life of an accelerometer sensor, the same for ``AccelerometerSensor`` and ``InputAccelerometerSensor``: the owner
/// of its phases (``SensorPhases``) and of the sources they need. The sensor (its ``SensorDriver``) says only how it
/// opens its device; its capture reads and calls it.
///
/// Each event goes to the phases first, which move to their next phase and say what to do; the lifecycle does it after the
/// transition, in that order: it stops the capture of the phase left (which puts its device back), arms or cancels the
/// one timer (the retry in `failed`; in `stopped`, the time that retry is due; the settle delay after a hotplug event
/// in `absent`), opens the device, logs, and last tells its delegate, which may start or stop the sensor again.
final class SensorLifecycle<Driver: SensorDriver> {
    /// The phases, the retry policy and the hotplug rule: what to do at each event.
    private var phases = SensorPhases<Driver.Capturing>()
    /// The one timer the phases armed; replacing it cancels the one before.
    private var timer: TimerSource?
    /// The accelerometer in use, or last found.
    var accelerometer: Accelerometer?
    /// The last error, for diagnostics.
    var lastError: String?

    /// The sensor, from ``attach(_:subsystem:)`` on: held weakly, as it holds its lifecycle.
    private weak var driver: Driver?
    /// The loop of the sensor's sources.
    let loop: EventLoop
    /// The sensor's log.
    let logger: Logger
    /// The sensor's location, named in each report to the delegate.
    let location: SensorLocation
    private unowned let delegate: any AccelerometerSensorDelegate
    /// What the log says of the sensor's device, and how loudly it says that there is none.
    private let wording: SensorLogWording
    private var monitor: HotplugMonitor?

    /// A stopped sensor's lifecycle, reporting to `delegate` (held unowned: the sensor's owner outlives it) for
    /// `location`, and logging of its device in `wording`. It does nothing until its sensor is attached.
    init(
        _ wording: SensorLogWording,
        loop: EventLoop,
        logger: Logger,
        location: SensorLocation,
        delegate: any AccelerometerSensorDelegate
    ) {
        self.wording = wording
        self.loop = loop
        self.logger = logger
        self.location = location
        self.delegate = delegate
    }

    /// Gives the lifecycle its sensor, made with it (in the sensor's `init`), and listens for hotplug in `subsystem` at
    /// once (an idle netlink socket costs no wake-ups).
    func attach(_ driver: Driver, subsystem: String) {
        self.driver = driver
        do {
            monitor = try HotplugMonitor(loop: loop, subsystem: subsystem) { [unowned self] action, sysname in
                self.hotplug(action: action, sysname: sysname)
            }
        } catch {
            logger.warning("hotplug is not followed", metadata: ["subsystem": "\(subsystem)", "error": "\(error)"])
        }
    }

    deinit {
        phases.capturing?.stop()
    }

    /// The status the phase means (a closed sensor is stopped).
    var status: SensorState { phases.status }

    /// Whether the sensor is wanted: absent, capturing or failed.
    var isWanted: Bool { phases.isWanted }

    /// Whether the sensor is stopped (and not closed).
    var isStopped: Bool { phases.isStopped }

    /// Whether the sensor, stopped while failed, waits for that failure's retry: started sooner, it would only wait in
    /// `failed`. Its owner hears when the retry is due (``AccelerometerSensorDelegate/discoveryChanged(at:)``).
    var awaitsRetry: Bool { phases.awaitsRetry }

    /// What the capturing phase holds; nil in any other.
    var capturing: Driver.Capturing? { phases.capturing }

    /// The pace asked for last; every capture starts at the full pace.
    var pace: SensorPace {
        get { phases.pace }
        set { phases.pace = newValue }
    }

    /// Starts capture (or waits for a device if there is none). Does nothing if already started, or closed. A sensor
    /// stopped while failed is tried when that failure's retry is due, not at once.
    func start() {
        perform(phases.start(now: loop.now))
    }

    /// Stops capture completely and puts the device back; a change of status is reported. An absent sensor forgets
    /// the device it last knew; a failed sensor keeps its retry's time, and tells its owner when it is due (until then
    /// it ``awaitsRetry``).
    func stop() {
        perform(phases.stop(now: loop.now))
    }

    /// Stops for good, puts the device back and stops listening for hotplug, telling the delegate nothing.
    func close() {
        perform(phases.close())
        monitor = nil
    }

    /// Opens the device afresh (a device that changed) and enters the phase it ends in.
    func attempt() {
        perform(phases.reopen())
    }

    /// Stops the capture and enters the phase `open` ends in: a sensor that captures its device another way (the
    /// buffer enabled again, or polled instead) opens it so.
    func reopen(with open: () -> SensorOpening<Driver.Capturing>) {
        perform(phases.reopen()) { open() }
    }

    /// The capture ended: a device gone makes the sensor absent, another error failed (retried).
    func captureFailed(_ error: SensorError) {
        perform(phases.captureFailed(error, now: loop.now))
    }

    /// A usable reading came: the next failure is retried after a second again.
    func delivered() {
        phases.delivered()
    }

    /// One hotplug rule for every sensor: the device in use removed makes a wanted sensor absent, and is forgotten
    /// by a stopped one; a device that appears is looked at by a stopped sensor that knows none (so that it can be
    /// named), and by an absent one once it settled.
    private func hotplug(action: HotplugAction, sysname: String) {
        guard let driver else { return }
        logger.debug("udev event", metadata: ["action": "\(action)", "device": "\(sysname)"])
        switch action {
        case .remove where sysname == accelerometer?.id:
            perform(phases.deviceRemoved(sysname, now: loop.now))
        case .add, .change, .bind:
            guard driver.concerns(sysname) else { return }
            if isStopped, accelerometer == nil {
                driver.refreshDiscovery()
                return
            }
            if action == .change, sysname == accelerometer?.id, driver.deviceChanged() { return }
            perform(phases.deviceAppeared(now: loop.now))
        case .remove, .unbind, .other:
            break
        }
    }

    /// Does what a transition of the phases said, in order, opening the device through the sensor.
    private func perform(_ actions: [SensorPhases<Driver.Capturing>.Action]) {
        perform(actions) { driver?.open() }
    }

    /// Does what a transition of the phases said, in order; `open` opens the device when they say so (nil: there is no
    /// sensor to open it any more). The delegate is told last, once the phase is entered: what it does then is a new
    /// event.
    private func perform(
        _ actions: [SensorPhases<Driver.Capturing>.Action],
        open: () -> SensorOpening<Driver.Capturing>?
    ) {
        for action in actions {
            switch action {
            case .stopCapture(let capturing):
                capturing.stop()
            case .forgetDevice:
                accelerometer = nil
            case .armTimer(let time):
                timer = try? loop.addTimer(at: time) { [unowned self] in self.perform(self.phases.timerFired()) }
            case .cancelTimer:
                timer = nil
            case .open:
                guard let opening = open() else { return }
                perform(phases.opened(opening, now: loop.now))
            case .noteAbsence(let reason):
                lastError = reason
                logger.log(level: wording.absenceLevel, wording.absent, metadata: ["reason": "\(reason)"])
            case .noteGone(let error):
                lastError = "\(error)"
                logger.notice(wording.gone, metadata: ["error": "\(error)"])
            case .noteFailure(let error, let delay):
                lastError = "\(error)"
                logger.error(wording.failed, metadata: ["error": "\(error)", "retry_in": "\(Int(delay)) s"])
            case .reportStatus(let previous, let current):
                delegate.statusChanged(at: location, from: previous, to: current)
            case .reportDiscovery:
                delegate.discoveryChanged(at: location)
            }
        }
    }
}
