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

/// What the engine needs of the sensor: starting and stopping it as generation begins and ends, its pace, its
/// status, and the accelerometer it uses or found. ``AccelerometerSensor`` is the daemon's; a unit test puts a fake in its
/// place. The sensor reports its status changes and samples itself (the daemon wires them to the engine).
package protocol EngineSensor: AnyObject {
    /// The current status.
    var status: AccelerometerSensor.Status { get }
    /// The accelerometer in use, or found while stopped; nil when there is none.
    var accelerometer: Accelerometer? { get }
    /// Starts capture (or waits for a device); does nothing if started.
    func start()
    /// Stops capture and restores the device.
    func stop()
    /// The pace asked for last (full after every start).
    var pace: SensorPace { get }
    /// Samples slowly while the device is still, at the full rate while it moves.
    func setPace(_ pace: SensorPace)
}

extension AccelerometerSensor: EngineSensor {}
