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

/// The life of an accelerometer sensor, the same for ``AccelerometerSensor`` and ``InputAccelerometerSensor``: its
/// phases, the status its delegate hears of, the retries of a failing device, hotplug, start, stop and close. The
/// sensor (its ``SensorDriver``) says only how it opens its device; its capture reads and calls it.
///
/// Each phase holds the sources that serve it, and leaving the phase releases them (as service-lifecycle's
/// `ServiceGroup` keeps each state's resources in its case): the retry timer in `failed` (and in `stopped`, when it
/// stopped while failed, the timer that says when that retry is due), the settle delay after a hotplug event in
/// `absent`, the capture and its timers in `capturing`. Nothing is torn down by hand but the capture, which puts its
/// device back (``SensorCapturing/stop()``).
final class SensorShell<Driver: SensorDriver> {
    /// A phase of the sensor, with what it holds.
    enum Phase {
        /// Not wanted: nobody generating. Stopped while failed, it waits for that failure's retry (``awaitsRetry``):
        /// `retryDue` tells its owner when it is due, as a discovery.
        case stopped(retryDue: TimerSource?)
        /// Wanted, but there is no device; a hotplug event arms `settling`, a look again once the device settled.
        case absent(settling: TimerSource?)
        /// Capturing.
        case capturing(Driver.Capturing)
        /// Wanted, but the device could not be read; the timer tries again.
        case failed(retry: TimerSource?)
        /// Closed by its owner: stopped for good, it tells its delegate nothing any more.
        case closed
    }

    /// A device's attributes and node appear with its uevent, or just after: the time to wait before a look.
    static var settleDelay: Double { 0.1 }

    /// The phase now.
    private(set) var phase = Phase.stopped(retryDue: nil)
    /// The accelerometer in use, or last found.
    var accelerometer: Accelerometer?
    /// The last error, for diagnostics.
    var lastError: String?
    /// The pace asked for last; every capture starts at the full pace.
    var pace = SensorPace.full

    /// The sensor, from ``attach(_:subsystem:)`` on: held weakly, as it holds its shell.
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
    /// Failures in a row, until a usable reading or an absence; a stop and a start do not end the row.
    private var consecutiveFailures = 0
    /// When the device may be tried again after the last failure (the loop's clock); nil once it captured or was
    /// found absent. A stop keeps it: a sensor started again sooner waits for it.
    private var retryAt: Double?

    /// A stopped sensor's shell, reporting to `delegate` (held unowned: the sensor's owner outlives it) for
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

    /// Gives the shell its sensor, made with it (in the sensor's `init`), and listens for hotplug in `subsystem` at
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
        if case .capturing(let capturing) = phase { capturing.stop() }
    }

    /// The status the phase means (a closed sensor is stopped).
    var status: SensorState {
        switch phase {
        case .stopped, .closed: .stopped
        case .absent: .absent
        case .capturing: .active
        case .failed: .failed
        }
    }

    /// Whether the sensor is wanted: absent, capturing or failed.
    var isWanted: Bool {
        switch phase {
        case .stopped, .closed: false
        case .absent, .capturing, .failed: true
        }
    }

    /// Whether the sensor is stopped (and not closed).
    var isStopped: Bool {
        if case .stopped = phase { return true }
        return false
    }

    /// Whether the sensor, stopped while failed, waits for that failure's retry: started sooner, it would only wait in
    /// `failed`. Its owner hears when the retry is due (``AccelerometerSensorDelegate/accelerometerDiscoveryChanged(at:)``).
    var awaitsRetry: Bool {
        if case .stopped(let retryDue) = phase { return retryDue != nil }
        return false
    }

    /// What the capturing phase holds; nil in any other.
    var capturing: Driver.Capturing? {
        guard case .capturing(let capturing) = phase else { return nil }
        return capturing
    }

    /// Starts capture (or waits for a device if there is none). Does nothing if already started, or closed. A sensor
    /// stopped while failed is tried when that failure's retry is due, not at once (an owner that stops a failing
    /// sensor and starts it again would make it try at its own pace, not the retry policy's).
    func start() {
        guard isStopped else { return }
        if let retryAt, retryAt > loop.now {
            move(to: .failed(retry: retryTimer(at: retryAt)))
            return
        }
        attempt()
    }

    /// Stops capture completely and puts the device back; a change of status is reported. An absent sensor forgets
    /// the device it last knew: it was not there, so a stopped sensor names none (a hotplug event looks for it again)
    /// and its owner is not told of a device that would make it start the sensor again at once, only to find it
    /// absent again. A failed sensor keeps its retry's time, and tells its owner when it is due (until then it
    /// ``awaitsRetry``).
    func stop() {
        if case .closed = phase { return }
        if case .absent = phase { accelerometer = nil }
        tearDown()
        move(to: .stopped(retryDue: retryDueTimer()))
    }

    /// The timer that tries the device again at `time`.
    private func retryTimer(at time: Double) -> TimerSource? {
        try? loop.addTimer(at: time) { [unowned self] in self.attempt() }
    }

    /// The timer of a sensor stopped before its retry is due, which tells the owner when it is; nil when it is due.
    private func retryDueTimer() -> TimerSource? {
        guard let retryAt, retryAt > loop.now else { return nil }
        return try? loop.addTimer(at: retryAt) { [unowned self] in
            guard case .stopped = self.phase else { return }
            self.phase = .stopped(retryDue: nil)
            self.delegate.accelerometerDiscoveryChanged(at: self.location)
        }
    }

    /// Stops for good, puts the device back and stops listening for hotplug, telling the delegate nothing.
    func close() {
        tearDown()
        phase = .closed
        monitor = nil
    }

    /// Opens the device afresh (a start, a retry, a device that appeared or changed) and enters the phase it ends in.
    func attempt() {
        guard let driver else { return }
        reopen(with: driver.open)
    }

    /// Stops the capture and enters the phase `open` ends in: a sensor that captures its device another way (the
    /// buffer enabled again, or polled instead) opens it so. The old phase's sources go when the new one is entered.
    func reopen(with open: () -> SensorOpening<Driver.Capturing>) {
        tearDown()
        enter(open())
    }

    /// Enters the phase an attempt to open a device ended in.
    private func enter(_ opening: SensorOpening<Driver.Capturing>) {
        switch opening {
        case .capturing(let capturing):
            retryAt = nil
            move(to: .capturing(capturing))
        case .absent(let reason):
            (retryAt, consecutiveFailures) = (nil, 0)
            lastError = reason
            logger.log(level: wording.absenceLevel, wording.absent, metadata: ["reason": "\(reason)"])
            move(to: .absent(settling: nil))
        case .gone(let error):
            (retryAt, consecutiveFailures) = (nil, 0)
            lastError = "\(error)"
            logger.notice(wording.gone, metadata: ["error": "\(error)"])
            move(to: .absent(settling: nil))
        case .failed(let error):
            lastError = "\(error)"
            consecutiveFailures += 1
            let delay = Self.retryDelay(afterFailures: consecutiveFailures)
            logger.error(wording.failed, metadata: ["error": "\(error)", "retry_in": "\(Int(delay)) s"])
            let due = loop.now + delay
            retryAt = due
            move(to: .failed(retry: retryTimer(at: due)))
        }
    }

    /// The one retry policy: soon, then less often. The seconds before the retry after `failures` failures in a
    /// row: 1 for the first four, then 10.
    static func retryDelay(afterFailures failures: Int) -> Double {
        failures < 5 ? 1.0 : 10.0
    }

    /// The capture ended: a device gone makes the sensor absent, another error failed (retried).
    func captureFailed(_ error: SensorError) {
        guard isWanted else { return }
        tearDown()
        enter(error.isDeviceGone ? .gone(error) : .failed(error))
    }

    /// A usable reading came: the next failure is retried after a second again.
    func delivered() {
        consecutiveFailures = 0
    }

    /// One hotplug rule for every sensor: the device in use removed makes a wanted sensor absent, and is forgotten
    /// by a stopped one; a device that appears is looked at by a stopped sensor that knows none (so that it can be
    /// named), and by an absent one once it settled.
    private func hotplug(action: HotplugAction, sysname: String) {
        guard let driver else { return }
        logger.debug("udev event", metadata: ["action": "\(action)", "device": "\(sysname)"])
        switch action {
        case .remove where sysname == accelerometer?.id && isWanted:
            captureFailed(SensorError(.deviceGone, operation: "udev remove", device: sysname))
        case .remove where sysname == accelerometer?.id:
            accelerometer = nil
            (retryAt, consecutiveFailures) = (nil, 0)
            if isStopped { phase = .stopped(retryDue: nil) }
            delegate.accelerometerDiscoveryChanged(at: location)
        case .add, .change, .bind:
            guard driver.concerns(sysname) else { return }
            if isStopped, accelerometer == nil {
                driver.refreshDiscovery()
                return
            }
            if action == .change, sysname == accelerometer?.id, driver.deviceChanged() { return }
            guard case .absent = phase else { return }
            let settling = try? loop.addTimer(at: loop.now + Self.settleDelay) { [unowned self] in
                if case .absent = self.phase { self.attempt() }
            }
            phase = .absent(settling: settling)
        case .remove, .unbind, .other:
            break
        }
    }

    /// Moves to `next` and tells the delegate when the status changes; the old phase's sources go with it.
    private func move(to next: Phase) {
        let previous = status
        phase = next
        let current = status
        guard current != previous else { return }
        delegate.accelerometer(at: location, changedStatusFrom: previous, to: current)
    }

    /// Stops the capture, which puts its device back; the caller then enters the next phase, which releases the
    /// sources of the old one.
    private func tearDown() {
        if case .capturing(let capturing) = phase { capturing.stop() }
        pace = .full
    }
}
