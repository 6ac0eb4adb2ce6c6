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

import OrientationCore
import SensorDevices

/// The sensors' lifecycle: the display accelerometer's sensor and the base one (for the hinge), made together,
/// started and stopped together as generation begins and ends, paced together (the base follows the display: the
/// hinge needs no more, and a convertible at rest should not be woken by its base alone), replaced together when
/// the sensor options change, and closed together.
final class SensorSet {
    private let factory: any SensorFactory
    /// Where the sensors' samples go, straight from each, and their status.
    private let reports: SensorRecipients
    /// The options the sensors were made with (the base one's derived: ``SensorOptions/forBase``).
    private(set) var options: SensorOptions
    /// The display accelerometer's sensor: the orientation.
    private(set) var display: any EngineSensor
    /// The base accelerometer's sensor: the hinge angle.
    private(set) var base: any EngineSensor
    /// The base sensor's sample times on the display's clock, for the hinge.
    private let clocks = SensorClocks()
    /// The acceleration of each sensor's last sample (after its matrix, unfiltered), for ``reading(at:)``; nil
    /// before the first sample of a capture.
    private var lastAcceleration: (display: Vector3?, base: Vector3?) = (nil, nil)
    /// The accelerometers whose matrix was said to be impossible (each said once).
    private var saidMatrices: Set<String> = []

    /// Makes both sensors, stopped, telling `reports` (the engine, which owns this set: held unowned).
    init(factory: any SensorFactory, options: SensorOptions, reports: SensorRecipients) {
        self.factory = factory
        self.reports = reports
        self.options = options
        display = factory.makeSensor(options: options, reports: reports)
        base = factory.makeSensor(options: options.forBase, reports: reports)
    }

    /// Looks for both accelerometers while stopped (their delegate hears what they found).
    func refreshDiscovery() {
        display.refreshDiscovery()
        base.refreshDiscovery()
    }

    /// Starts both; each reports its new status from inside.
    func start() {
        display.start()
        base.start()
    }

    /// Stops both, restoring the devices.
    func stop() {
        display.stop()
        base.stop()
    }

    /// The loop's clock (cached: no system call).
    var now: Double { factory.now }

    /// The display's pace.
    var pace: SensorPace { display.pace }

    /// Paces both sensors.
    func setPace(_ pace: SensorPace) {
        display.setPace(pace)
        if base.pace != pace { base.setPace(pace) }
    }

    /// Replaces both sensors by ones made with `new` options, discovered, and started when `running`. The old ones
    /// are closed first: they say nothing more.
    func replace(options new: SensorOptions, running: Bool) {
        close()
        options = new
        display = factory.makeSensor(options: new, reports: reports)
        base = factory.makeSensor(options: new.forBase, reports: reports)
        refreshDiscovery()
        if running { start() }
    }

    /// Closes both for good, restoring the devices; they tell their sink and their delegate nothing more.
    func close() {
        display.close()
        base.close()
    }

    /// A sample of the sensor at `location`, kept as its last reading: the display's as it is (its time sets the
    /// clocks), the base's on the display's clock, for the hinge.
    func arrived(_ sample: Sample, from location: SensorLocation) -> Sample {
        switch location {
        case .display:
            lastAcceleration.display = sample.acceleration
            clocks.display(sample, now: factory.now)
            return sample
        case .base:
            lastAcceleration.base = sample.acceleration
            return clocks.base(sample, now: factory.now)
        }
    }

    /// The sensor at `location` no longer captures: the clocks start afresh, and its last reading says nothing of
    /// its next capture's (its matrix may be another).
    func stoppedCapturing(at location: SensorLocation) {
        clocks.reset()
        if location == .display { lastAcceleration.display = nil } else { lastAcceleration.base = nil }
    }

    /// What cannot be right with the matrix of the accelerometer at `location` (a broken entry, an impossible
    /// matrix, a base entry of calibrate's old frame), the first time it is asked of that accelerometer; nil when
    /// nothing is, or after.
    func newMatrixProblem(at location: SensorLocation) -> (accelerometer: Accelerometer, problem: String)? {
        let sensor = location == .display ? display : base
        guard let accelerometer = sensor.accelerometer, !saidMatrices.contains(accelerometer.id) else { return nil }
        let problem =
            accelerometer.brokenMatrix.map { "\($0): the identity is used, a guess; run 'orientd calibrate'" }
            ?? AxesCheck.problem(with: accelerometer.calibration.matrix)
            ?? accelerometer.oldFrameEntry.map(OldBaseEntry.advice)
        guard let problem else { return nil }
        saidMatrices.insert(accelerometer.id)
        return (accelerometer, problem)
    }

    /// What the sensor at `location` read last, before its mount matrix (after scale and offset, m/s²): its last
    /// sample turned back by the inverse of the matrix in force. nil while it does not capture, before its first
    /// sample, or when the matrix cannot be inverted. For `status` (`orientd calibrate` takes its poses from it when
    /// the driver refuses it raw readings while the daemon reads the buffer); computed only when asked.
    func reading(at location: SensorLocation) -> Vector3? {
        let sensor = location == .display ? display : base
        let last = location == .display ? lastAcceleration.display : lastAcceleration.base
        guard sensor.status == .active, let last, let inverse = sensor.accelerometer?.calibration.matrix.inverse
        else { return nil }
        return inverse.apply(to: last)
    }

    /// Whether the base's hinge counts: a base accelerometer, neither absent nor failed, nor stopped while failed
    /// until its retry is due (started then, it would fail again at once: the virtual switch's claim would start
    /// and stop the sensors in a loop).
    var baseCounts: Bool {
        base.accelerometer != nil && (base.status == .active || (base.status == .stopped && !base.awaitsRetry))
    }
}
