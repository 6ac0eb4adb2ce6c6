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

package import EventLoop
package import IIOSensor
package import Logging
package import OrientationCore

/// The display's sensor of the daemon (and of `orientd sensors --probe`, `orientd record` and `orientd calibrate`):
/// the IIO display accelerometer (``AccelerometerSensor``) when there is one, and else an accelerometer of the input
/// subsystem (``InputAccelerometerSensor``): IIO wins. It manages both: it is the delegate of both and tells its own
/// delegate one status, that of the sensor in use, so that a change from one to the other while generating (an IIO
/// device plugged in or removed) reads as no change at all. Their samples do not pass through it: each hands them
/// straight to the sink this sensor was made with (``SensorReports``).
///
/// The input sensor is started only while the IIO sensor is wanted and absent, and stopped as soon as the IIO one has
/// a device: its node is open only while someone generates and there is no IIO display accelerometer.
package final class DisplaySensor: EngineSensor, AccelerometerSensorDelegate {
    private unowned let delegate: any AccelerometerSensorDelegate
    // Made in `init` with this sensor as their delegate (hence not `let`); never nil after it.
    private var iio: AccelerometerSensor!
    private var input: InputAccelerometerSensor!
    private var wanted = false
    private var closed = false
    /// The status last told to the delegate.
    private var reported = SensorState.stopped

    /// Both sensors, stopped, handing their samples straight to `reports.samples` and their status to this one,
    /// which reports to `reports.delegate`.
    package init(loop: EventLoop, options: SensorOptions, logger: Logger, reports: SensorReports) {
        delegate = reports.delegate
        let managed = SensorReports(samples: reports.samples, delegate: self)
        iio = AccelerometerSensor(loop: loop, options: options, logger: logger, reports: managed)
        input = InputAccelerometerSensor(loop: loop, options: options, logger: logger, reports: managed)
    }

    /// Whether the input accelerometer is the one in use: wanted, with no IIO one.
    private var usesInput: Bool {
        iio.status == .absent && input.status != .stopped
    }

    package var status: SensorState {
        guard iio.status == .absent else { return iio.status }
        return input.status == .stopped ? .absent : input.status
    }

    package var awaitsRetry: Bool { iio.awaitsRetry || input.awaitsRetry }

    package var accelerometer: Accelerometer? {
        if usesInput { return input.accelerometer }
        if iio.status != .stopped { return iio.accelerometer }
        return iio.accelerometer ?? input.accelerometer
    }

    package func start() {
        guard !closed else { return }
        wanted = true
        iio.start()
        settle()
    }

    package func stop() {
        guard !closed else { return }
        wanted = false
        iio.stop()
        settle()
    }

    package func close() {
        closed = true
        iio.close()
        input.close()
    }

    package func refreshDiscovery() {
        iio.refreshDiscovery()
        input.refreshDiscovery()
    }

    package var pace: SensorPace { usesInput ? input.pace : iio.pace }

    package func setPace(_ pace: SensorPace) {
        if usesInput { input.setPace(pace) } else { iio.setPace(pace) }
    }

    package var mode: CaptureMode? { usesInput ? input.mode : iio.mode }

    package var fellBack: Bool { usesInput ? false : iio.fellBack }

    package var samplesRead: Int { iio.samplesRead + input.samplesRead }

    package var lastError: String? {
        usesInput || iio.status == .absent ? input.lastError ?? iio.lastError : iio.lastError
    }

    /// Starts the input sensor when the IIO one is wanted and absent, stops it otherwise, and tells the delegate the
    /// status if it changed. Called again from inside, as the sensors report their own changes: it settles.
    private func settle() {
        guard !closed else { return }
        if wanted && iio.status == .absent { input.start() } else { input.stop() }
        let current = status
        guard current != reported else { return }
        let previous = reported
        reported = current
        delegate.accelerometer(at: .display, changedStatusFrom: previous, to: current)
    }

    // MARK: AccelerometerSensorDelegate (both sensors)

    package func accelerometer(
        at location: SensorLocation,
        changedStatusFrom previous: SensorState,
        to current: SensorState
    ) {
        settle()
    }

    /// Either sensor found or lost its accelerometer while stopped: this sensor's own (``accelerometer``, which
    /// chooses between them) may have changed.
    package func accelerometerDiscoveryChanged(at location: SensorLocation) {
        delegate.accelerometerDiscoveryChanged(at: location)
    }
}
