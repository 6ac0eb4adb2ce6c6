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

/// Where an accelerometer sensor's reports go, given to it when it is made: its samples straight to the one that
/// consumes them, everything else to the one that manages it. In the daemon the engine takes the samples of both
/// sensors, and manages the base's, while ``AccelerometerSensor`` and ``InputAccelerometerSensor`` of the display
/// are managed by the daemon's `DisplaySensor`, which chooses between them.
///
/// Both are held unowned: they outlive the sensor, whose owner closes it before letting it go.
public struct SensorReports {
    /// The one that consumes the samples, called from the sensor's capture once a sample (the hot path).
    public unowned let samples: any AccelerometerSampleSink
    /// The one that manages the sensor: its status, what it finds while stopped and the reading taken then.
    public unowned let delegate: any AccelerometerSensorDelegate

    /// Samples to `samples`, the rest to `delegate`.
    public init(samples: any AccelerometerSampleSink, delegate: any AccelerometerSensorDelegate) {
        self.samples = samples
        self.delegate = delegate
    }
}
