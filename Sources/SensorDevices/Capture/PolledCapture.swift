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

import CLibIIO
import EventLoop
import Logging
import OrientationCore
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Reads `in_accel_{x,y,z}_raw` from a timer of the loop, only while running: at the full rate, or at the idle
/// rate while the sensor's owner says the device is still (``setPace(_:)``).
///
/// On a local context the three attributes are held open and each tick is three `pread` calls (``RawAttribute``).
/// Twice a second (at the first tick after ``reopenInterval``, so at every tick of a slower pace), a tick also
/// looks whether a file was replaced (one stat(2) each) and opens the new one, so a value a test rig changes by
/// replacing the file, as umockdev's `set_attribute` does, is read within a second. The same look finds a device
/// whose sysfs went without a read failing (no udev `remove` event): the capture ends as for a device gone.
final class PolledCapture: Capture {
    /// The device polled.
    let device: IIODevice
    var mode: CaptureMode { .poll }
    private var attributes: (RawAttribute, RawAttribute, RawAttribute)
    /// Seconds between two looks at whether an attribute's file was replaced (``RawAttribute/reopenIfReplaced()``).
    static let reopenInterval = 0.5
    /// The first tick due at or after this time looks whether a file was replaced (the loop's clock).
    private var nextReopen: Double
    private let calibration: Calibration
    private let loop: EventLoop
    private let logger: Logger
    /// The sensor that made this capture: it takes every reading, the passing read errors and the final failure.
    private unowned let owner: AccelerometerSensor
    private let check: RawReadingCheck
    private let giveUpAfter: Double
    /// Seconds between ticks at the full rate and at the idle rate.
    private let fullInterval: Double
    private let idleInterval: Double
    private var timer: TimerSource?
    /// The next tick's deadline (the loop's clock); the timer is one-shot, moved on at every tick.
    private var deadline: Double
    /// The pace the timer follows now.
    private(set) var pace = SensorPace.full
    /// When reading started to fail; nil while it works.
    private var failingSince: Double?

    /// Starts polling at `rate` samples per second (`idleRate` once ``setPace(_:)`` says idle).
    ///
    /// A read that fails is logged once and handed to the sensor's `captureHadTrouble(_:)`; polling goes on, and
    /// the next good read recovers. Reads that keep failing for `giveUpAfter` seconds (or a device that is gone)
    /// end in its `captureFailed(_:)`.
    /// - Throws: ``SensorError`` when the raw attributes cannot be read at all, or no timer can be made.
    init(
        device: IIODevice,
        accelerometer: Accelerometer,
        rate: Double,
        idleRate: Double,
        loop: EventLoop,
        logger: Logger,
        giveUpAfter: Double,
        owner: AccelerometerSensor
    ) throws(SensorError) {
        guard let x = device.accelerometerChannel("x"), let y = device.accelerometerChannel("y"),
            let z = device.accelerometerChannel("z")
        else {
            throw SensorError(
                .badAttribute,
                operation: "in_accel_*_raw",
                device: device.id,
                detail: "no x/y/z channels"
            )
        }
        self.device = device
        let syspath = device.context.isLocal ? accelerometer.syspath : nil
        attributes = (
            RawAttribute(channel: x, syspath: syspath), RawAttribute(channel: y, syspath: syspath),
            RawAttribute(channel: z, syspath: syspath)
        )
        calibration = accelerometer.calibration
        self.loop = loop
        self.logger = logger
        self.owner = owner
        self.giveUpAfter = giveUpAfter
        fullInterval = 1 / rate
        idleInterval = 1 / min(max(idleRate, 1), rate)
        check = RawReadingCheck(
            x: x.isScanElement ? x.format : nil,
            y: y.isScanElement ? y.format : nil,
            z: z.isScanElement ? z.format : nil
        )
        let start = loop.now
        deadline = start + fullInterval
        nextReopen = start + Self.reopenInterval
        if !attributes.0.isHeldOpen || !attributes.1.isHeldOpen || !attributes.2.isHeldOpen {
            logger.debug("reading the raw attributes through libiio", metadata: ["device": "\(device.id)"])
        }
        // On a throw from here on, deinit closes the attributes.
        _ = try attributes.0.read()
        do {
            timer = try loop.addTimer(at: deadline) { [unowned self] in self.tick() }
        } catch {
            throw SensorError.call("sd_event_add_time", device: device.id, errno: error.errno)
        }
    }

    deinit {
        stop()
        closeAttributes()
    }

    /// Stops polling: the timer is gone, nothing wakes the process.
    func stop() {
        timer = nil
    }

    /// Polls at the idle rate or at the full rate from now on; the next tick is one new interval away.
    /// - Returns: true: a timer takes any pace.
    func setPace(_ new: SensorPace) -> Bool {
        guard new != pace else { return true }
        pace = new
        deadline = loop.now + (new == .idle ? idleInterval : fullInterval)
        timer?.schedule(at: deadline)
        return true
    }

    private func closeAttributes() {
        attributes.0.close()
        attributes.1.close()
        attributes.2.close()
    }

    /// One tick: the next one is armed first (the sink may stop the capture or change its pace), then x, y and z
    /// are read and the sample is handed on.
    private func tick() {
        // Timed by when the tick was due, not when it woke: at an idle pace of half a second or slower, every tick
        // looks, however late each one wakes.
        let due = deadline
        let interval = pace == .idle ? idleInterval : fullInterval
        deadline += interval
        if deadline <= loop.now { deadline = loop.now + interval }
        timer?.schedule(at: deadline)
        if due >= nextReopen {
            nextReopen = due + Self.reopenInterval
            do throws(SensorError) {
                try attributes.0.reopenIfReplaced()
                try attributes.1.reopenIfReplaced()
                try attributes.2.reopenIfReplaced()
            } catch {
                // The device went, and no read said so (the held files may still read their last text).
                owner.captureFailed(error)
                return
            }
        }
        do {
            let x = try attributes.0.read()
            let y = try attributes.1.read()
            let z = try attributes.2.read()
            if failingSince != nil {
                logger.notice("reading the accelerometer works again", metadata: ["device": "\(device.id)"])
                failingSince = nil
            }
            owner.captured(
                Sample(time: loop.now, acceleration: calibration.apply(x: x, y: y, z: z)),
                quality: check.quality(x: x, y: y, z: z)
            )
        } catch {
            if error.isDeviceGone {
                owner.captureFailed(error)
            } else if let since = failingSince {
                guard loop.now - since >= giveUpAfter else { return }
                failingSince = nil
                var lasting = error
                lasting.detail = "reads failed for \(giveUpAfter) s"
                owner.captureFailed(lasting)
            } else {
                // EIO and the like: say it once, keep polling; the next good read recovers.
                failingSince = loop.now
                logger.warning(
                    "cannot read the accelerometer, still trying",
                    metadata: ["device": "\(device.id)", "error": "\(error)", "give_up_after": "\(giveUpAfter) s"]
                )
                owner.captureHadTrouble(error)
            }
        }
    }
}
