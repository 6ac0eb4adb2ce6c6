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

package import IIOSensor
import Logging
package import OrientationCore

/// The engine takes the samples of both sensors of its ``SensorSet``, straight from each (the IIO accelerometer's
/// capture, or the input accelerometer's, for the display): the display's go to the classifier, the base's (on the
/// display's clock) to the hinge.
extension Engine: AccelerometerSampleSink {
    package func accelerometer(at location: SensorLocation, captured sample: Sample) {
        switch location {
        case .display:
            lastAcceleration.display = sample.acceleration
            clocks.display(sample, now: sensors.now)
            handle(sample)
        case .base:
            lastAcceleration.base = sample.acceleration
            handleBase(clocks.base(sample, now: sensors.now))
        }
    }

    /// What the sensor at `location` read last, before its mount matrix (after scale and offset, m/s²): its last
    /// sample turned back by the inverse of the matrix in force. nil while it does not capture, before its first
    /// sample, or when the matrix cannot be inverted. For `status` (`orientd calibrate` takes its poses from it when
    /// the driver refuses it raw readings while the daemon reads the buffer); computed only when asked.
    package func reading(at location: SensorLocation) -> Vector3? {
        let sensor = location == .display ? sensors.display : sensors.base
        let last = location == .display ? lastAcceleration.display : lastAcceleration.base
        guard sensor.status == .active, let last, let inverse = sensor.accelerometer?.calibration.matrix.inverse
        else { return nil }
        return inverse.apply(to: last)
    }
}

/// The engine manages the sensors of its ``SensorSet``, as their delegate: their status and discoveries change the
/// sensor's state and whether the hinge counts (the display's as ``DisplaySensor`` tells them: one status for the IIO
/// accelerometer and the input one).
extension Engine: AccelerometerSensorDelegate {
    package func accelerometer(
        at location: SensorLocation,
        changedStatusFrom previous: SensorState,
        to current: SensorState
    ) {
        if current != .active {
            clocks.reset()
            // A reading of an earlier capture says nothing of the next one's (its matrix may be another).
            if location == .display { lastAcceleration.display = nil } else { lastAcceleration.base = nil }
        }
        if current == .active { sayMatrixProblem(at: location) }
        switch location {
        case .display:
            asOneSentChange { updateSensorState(current) }
        case .base:
            baseStatusChanged(to: current)
        }
    }

    package func accelerometerDiscoveryChanged(at location: SensorLocation) {
        switch location {
        case .display:
            // While someone generates the sensor's own status reports tell (a sensor replaced after a reload is
            // discovered stopped and then started: that is no change for clients).
            guard !isGenerating else { return }
            asOneSentChange { updateSensorState(sensors.display.status) }
        case .base:
            refreshHasBase()
            if sensors.base.accelerometer == nil { hinge = HingeMonitor(configuration: settings.hinge) }
            hingeDecided()
        }
    }

    /// Says once in the journal when the accelerometer's matrix cannot be right (a hand-written mistake, or a base entry
    /// of calibrate's old frame).
    private func sayMatrixProblem(at location: SensorLocation) {
        let sensor = location == .display ? sensors.display : sensors.base
        guard let accelerometer = sensor.accelerometer, !matrixProblemsSaid.contains(accelerometer.id) else { return }
        let problem =
            accelerometer.brokenMatrix.map { "\($0): the identity is used, a guess; run 'orientd calibrate'" }
            ?? AxesCheck.problem(with: accelerometer.calibration.matrix)
            ?? accelerometer.oldFrameEntry.map(OldBaseEntry.advice)
        guard let problem else { return }
        matrixProblemsSaid.insert(accelerometer.id)
        logger.warning(
            "the accelerometer's axes cannot be right",
            metadata: ["sensor": "\(location.rawValue)", "device": "\(accelerometer.id)", "finding": "\(problem)"]
        )
    }

    /// A base accelerometer gone or failing takes the hinge's decision with it (tablet mode falls back to the switch
    /// or to nothing); one that is not capturing leaves the angle unknown.
    private func baseStatusChanged(to status: SensorState) {
        refreshHasBase()
        switch status {
        case .active: return
        case .stopped: hinge.forget(.base)
        case .absent, .failed: hinge = HingeMonitor(configuration: settings.hinge)
        }
        hingeDecided()
    }

    /// Finds out again whether the hinge counts: there is a base sensor with a base accelerometer, neither absent
    /// nor failed, nor stopped while failed until its retry is due (started then, it would fail again at once: the
    /// virtual tablet-mode switch's claim would start and stop the sensors in a loop).
    private func refreshHasBase() {
        let base = sensors.base
        axes.baseEntryMayBeOldFrame = base.accelerometer?.oldFrameEntry != nil
        let had = hasBase
        hasBase =
            base.accelerometer != nil
            && (base.status == .active || (base.status == .stopped && !base.awaitsRetry))
        if hasBase != had { output.hingeAvailabilityChanged(tabletModeDecision) }
    }
}
