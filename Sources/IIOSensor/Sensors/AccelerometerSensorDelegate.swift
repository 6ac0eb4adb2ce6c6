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

/// What an accelerometer sensor (``AccelerometerSensor``, ``InputAccelerometerSensor``) tells whoever manages it,
/// given to the sensor when it is made (``SensorReports``): each change of status, a device found or removed while
/// the sensor is stopped, and the reading taken at discovery. Its samples go elsewhere, straight to the one that
/// consumes them (``AccelerometerSampleSink``). Each call names the sensor's ``SensorLocation``, so that one owner
/// can manage the display's sensor and the base's.
///
/// A sensor never calls its delegate once it is closed (``AccelerometerSensor/close()``), so an owner that replaces
/// or drops a sensor closes it and hears nothing more from it.
public protocol AccelerometerSensorDelegate: AnyObject {
    /// The status of the sensor at `location` changed; it may be called from inside ``AccelerometerSensor/start()``
    /// and ``AccelerometerSensor/stop()``.
    func statusChanged(at location: SensorLocation, from previous: SensorState, to current: SensorState)
    /// The sensor at `location` found its accelerometer, or lost it, while stopped (no status changes then); or,
    /// stopped while failed, the retry of that failure is due (it may be started again).
    func discoveryChanged(at location: SensorLocation)
}

extension AccelerometerSensorDelegate {
    /// Nothing: an owner that reads the status when it needs it (the probe, after the start) needs no report of its
    /// changes.
    public func statusChanged(
        at location: SensorLocation,
        from previous: SensorState,
        to current: SensorState
    ) {}

    /// Nothing: an owner that names no accelerometer while stopped needs no discovery.
    public func discoveryChanged(at location: SensorLocation) {}
}
