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

/// Where an accelerometer sensor's reports go, given to it when it is made: its samples straight to the one that
/// consumes them, everything else to the one that manages it. In the daemon the engine takes the samples of both
/// sensors, and manages the base's, while ``AccelerometerSensor`` and ``InputAccelerometerSensor`` of the display
/// are managed by ``DisplaySensor``, which chooses between them.
///
/// Both are held unowned: they outlive the sensor, whose owner closes it before letting it go.
public struct SensorRecipients {
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

/// Where an accelerometer sensor's samples go, given to the sensor when it is made (``SensorRecipients``): the one that
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

/// What an accelerometer sensor (``AccelerometerSensor``, ``InputAccelerometerSensor``) tells whoever manages it,
/// given to the sensor when it is made (``SensorRecipients``): each change of status, a device found or removed while
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
