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

package import OrientationCore
package import SensorDevices

/// What the daemon needs of a sensor: starting and stopping it, its pace, its status, the accelerometer it uses
/// or found, and what `status` reports of it. ``DisplaySensor`` (the IIO accelerometer or an input one) and
/// ``AccelerometerSensor`` (the base) are the daemon's; a unit test puts a fake in
/// its place (through its ``SensorFactory``). A sensor hands its samples to the sink it was made with, and reports
/// its status to the delegate it was made with.
package protocol EngineSensor: AnyObject {
    /// The current status.
    var status: SensorState { get }
    /// Whether it was stopped while failed and that failure's retry is not due yet: started now, it would wait in
    /// `failed`. The delegate hears when the retry is due, as a discovery.
    var awaitsRetry: Bool { get }
    /// The accelerometer in use, or found while stopped; nil when there is none.
    var accelerometer: Accelerometer? { get }
    /// Starts capture (or waits for a device); does nothing if started.
    func start()
    /// Stops capture and restores the device.
    func stop()
    /// Stops for good and tells its sink and its delegate nothing more: the sensor is being replaced or the daemon
    /// stops.
    func close()
    /// Looks for its accelerometer while stopped.
    func refreshDiscovery()
    /// The pace asked for last (full after every start).
    var pace: SensorPace { get }
    /// Samples slowly while the device is still, at the full rate while it moves.
    func setPace(_ pace: SensorPace)
    /// How it reads the device now; nil while not capturing.
    var mode: CaptureMode? { get }
    /// Whether polling was chosen because the buffer delivered nothing.
    var fellBack: Bool { get }
    /// Samples read since the process started.
    var samplesRead: Int { get }
    /// The last error, for diagnostics.
    var lastError: String? { get }
}

extension AccelerometerSensor: EngineSensor {}
extension DisplaySensor: EngineSensor {}

/// Makes the daemon's sensors: ``AccelerometerSensorFactory`` on the event loop; a unit test's fakes.
package protocol SensorFactory {
    /// A stopped sensor for `options` (its ``SensorOptions/location`` says which accelerometer), handing its samples
    /// to `reports.samples` and reporting its status to `reports.delegate`.
    func makeSensor(options: SensorOptions, reports: SensorRecipients) -> any EngineSensor
    /// The loop's clock (cached: no system call), for putting the base sensor's samples on the display's clock.
    var now: Double { get }
}
