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

import Logging
package import OrientationCore
package import SensorDevices

/// The engine takes the samples of both sensors of its ``SensorSet``, straight from each (the IIO accelerometer's
/// capture, or the input accelerometer's, for the display): the display's go to the classifier, the base's (on the
/// display's clock) to the hinge.
extension Engine: AccelerometerSampleSink {
    package func take(_ sample: Sample, from location: SensorLocation) {
        let sample = sensors.arrived(sample, from: location)
        switch location {
        case .display: handle(sample)
        case .base: handleBase(sample)
        }
    }
}

/// The engine manages the sensors of its ``SensorSet``, as their delegate: their status and discoveries change the
/// sensor's state and whether the hinge counts (the display's as ``DisplaySensor`` tells them: one status for the IIO
/// accelerometer and the input one).
extension Engine: AccelerometerSensorDelegate {
    package func statusChanged(
        at location: SensorLocation,
        from previous: SensorState,
        to current: SensorState
    ) {
        if current != .active { sensors.stoppedCapturing(at: location) }
        if current == .active, let (accelerometer, problem) = sensors.newMatrixProblem(at: location) {
            logger.warning(
                "the accelerometer's axes cannot be right",
                metadata: ["sensor": "\(location.rawValue)", "device": "\(accelerometer.id)", "finding": "\(problem)"]
            )
        }
        switch location {
        case .display: displayStatusChanged(to: current)
        case .base: baseChanged(status: current)
        }
    }

    package func discoveryChanged(at location: SensorLocation) {
        switch location {
        case .display:
            // While someone generates the sensor's own status reports tell (a sensor replaced after a reload is
            // discovered stopped and then started: that is no change for clients).
            guard !isGenerating else { return }
            displayStatusChanged(to: sensors.display.status)
        case .base:
            baseChanged(status: nil)
        }
    }
}
