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
package import Logging
package import OrientationCore

/// The display's sensor of the daemon (its engine's, as an `EngineSensor`), of `orientd sensors --probe`, `orientd
/// record` and `orientd calibrate`: the IIO display accelerometer (``AccelerometerSensor``) when there is one, and else
/// an accelerometer of the input subsystem (``InputAccelerometerSensor``): IIO wins. It manages both: it is the
/// delegate of both and tells its own delegate one status, that of the sensor in use, so that a change from one to the
/// other while generating (an IIO device plugged in or removed) reads as no change at all. Their samples do not pass
/// through it: each hands them straight to the sink this sensor was made with (``SensorRecipients``).
///
/// The input sensor is started only while the IIO sensor is wanted and absent, and stopped as soon as the IIO one has
/// a device: its node is open only while someone generates and there is no IIO display accelerometer.
package final class DisplaySensor: AccelerometerSensorDelegate {
    private unowned let delegate: any AccelerometerSensorDelegate
    // Made in `init` with this sensor as their delegate (hence not `let`); never nil after it.
    private var iio: AccelerometerSensor!
    private var input: InputAccelerometerSensor!
    private var selection = DisplaySelection()
    private var closed = false
    /// Whether ``settle()`` is under way: a sensor's report from inside it asks for one more round, not a nested one.
    private var settling = false
    private var unsettled = false

    /// Both sensors, stopped, handing their samples straight to `reports.samples` and their status to this one,
    /// which reports to `reports.delegate`.
    package init(loop: EventLoop, options: SensorOptions, logger: Logger, reports: SensorRecipients) {
        delegate = reports.delegate
        let managed = SensorRecipients(samples: reports.samples, delegate: self)
        iio = AccelerometerSensor(loop: loop, options: options, logger: logger, reports: managed)
        input = InputAccelerometerSensor(loop: loop, options: options, logger: logger, reports: managed)
    }

    /// Whether the input accelerometer is the one in use: wanted, with no IIO one.
    private var usesInput: Bool {
        iio.status == .absent && input.status != .stopped
    }

    package var status: SensorState {
        DisplaySelection.status(iio: iio.status, input: input.status)
    }

    package var awaitsRetry: Bool { iio.awaitsRetry || input.awaitsRetry }

    package var accelerometer: Accelerometer? {
        if usesInput { return input.accelerometer }
        if iio.status != .stopped { return iio.accelerometer }
        return iio.accelerometer ?? input.accelerometer
    }

    package func start() {
        guard !closed else { return }
        selection.wanted = true
        iio.start()
        settle()
    }

    package func stop() {
        guard !closed else { return }
        selection.wanted = false
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

    /// Starts the input sensor when the IIO one is wanted and absent, stops it otherwise, until that holds (the
    /// sensors report their changes from inside: each report asks for one more round), and only then tells the
    /// delegate the status, if it changed.
    private func settle() {
        guard !closed else { return }
        guard !settling else {
            unsettled = true
            return
        }
        settling = true
        repeat {
            unsettled = false
            switch selection.input(iio: iio.status) {
            case .start: input.start()
            case .stop: input.stop()
            }
        } while unsettled && !closed
        settling = false
        guard !closed, let (previous, current) = selection.report(status) else { return }
        delegate.statusChanged(at: .display, from: previous, to: current)
    }

    // MARK: AccelerometerSensorDelegate (both sensors)

    package func statusChanged(
        at location: SensorLocation,
        from previous: SensorState,
        to current: SensorState
    ) {
        settle()
    }

    /// Either sensor found or lost its accelerometer while stopped: this sensor's own (``accelerometer``, which
    /// chooses between them) may have changed.
    package func discoveryChanged(at location: SensorLocation) {
        delegate.discoveryChanged(at: location)
    }
}

/// Which of the display's two sensors is used, and the status told of them: a pure value, whose decisions
/// ``DisplaySensor`` carries out (no sensor is called from inside it).
struct DisplaySelection: Equatable {
    /// What to do with the input accelerometer's sensor.
    enum InputAction: Equatable {
        case start
        case stop
    }

    /// Whether someone wants the display's sensor started.
    var wanted = false
    /// The status last told to the delegate.
    private(set) var reported = SensorState.stopped

    /// The input sensor runs only while the display's sensor is wanted and the IIO one is absent.
    func input(iio: SensorState) -> InputAction {
        wanted && iio == .absent ? .start : .stop
    }

    /// The one status of the pair: the IIO sensor's, unless it is absent; then the input sensor's (absent too while
    /// it is stopped).
    static func status(iio: SensorState, input: SensorState) -> SensorState {
        guard iio == .absent else { return iio }
        return input == .stopped ? .absent : input
    }

    /// The status to tell, when `current` is not the one told last: the one before, and `current`.
    mutating func report(_ current: SensorState) -> (previous: SensorState, current: SensorState)? {
        guard current != reported else { return nil }
        defer { reported = current }
        return (reported, current)
    }
}
