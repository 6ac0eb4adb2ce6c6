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

public import OrientationCore

/// Where an accelerometer sensor's samples go, given to the sensor when it is made (``SensorReports``): the one that
/// consumes them (the daemon's engine, a recording, the probe, a calibration), called straight from the sensor's
/// capture, once a sample (the hot path). The sensor's status goes elsewhere, to whoever manages the sensor
/// (``AccelerometerSensorDelegate``).
///
/// Each call names the sensor's ``SensorLocation``, so that one sink can take the display's samples and the base's.
/// A sensor calls its sink no more once it is closed.
public protocol AccelerometerSampleSink: AnyObject {
    /// A calibrated sample of the accelerometer at `location` (an implausible one too, when the sensor's options
    /// hand them on: ``SensorOptions/handsOnImplausibleReadings``).
    func take(_ sample: Sample, from location: SensorLocation)
}
