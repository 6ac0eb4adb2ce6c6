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

package import OrientDaemon
import OrientProtocol
package import OrientationCore
package import SensorDevices

/// The sensor as the engine sees it, for the engine's unit tests and benchmarks: it starts and stops at once, as
/// ``AccelerometerSensor`` does, reports its status changes to the delegate it was made with, and keeps the paces
/// it was asked for.
package final class FakeSensor: EngineSensor {
    package private(set) var status = SensorState.stopped
    /// Whether it waits for a failure's retry while stopped (set by a test; ``retryBecameDue()`` ends it).
    package var awaitsRetry = false
    /// The accelerometer found; nil: the machine has none (starting makes the sensor `absent`).
    package var accelerometer: Accelerometer?
    package private(set) var starts = 0
    package private(set) var stops = 0
    /// The pace the engine asked for last; every start is at the full pace.
    package private(set) var pace = SensorPace.full
    /// Every pace change the engine asked for, in order, since the last ``forgetPaces()``.
    package private(set) var paces: [SensorPace] = []
    /// Whether the engine closed it (it then reports nothing).
    package private(set) var isClosed = false
    /// Which accelerometer it stands for; set by the factory.
    package fileprivate(set) var location = SensorLocation.display
    /// The engine, as the sensor factory hands it over.
    fileprivate weak var delegate: (any AccelerometerSensorDelegate)?
    package var mode: CaptureMode? { status == .active ? .poll : nil }
    package var fellBack: Bool { false }
    package var samplesRead: Int { 0 }
    package var lastError: String? { nil }

    package init(accelerometer: Accelerometer?) {
        self.accelerometer = accelerometer
    }

    package func start() {
        guard status == .stopped else { return }
        starts += 1
        pace = .full
        report(accelerometer == nil ? .absent : .active)
    }

    package func stop() {
        stops += 1
        report(.stopped)
    }

    package func close() {
        status = .stopped
        isClosed = true
    }

    package func refreshDiscovery() {
        guard !isClosed else { return }
        delegate?.discoveryChanged(at: location)
    }

    /// The retry a stopped failed sensor waited for is due: it tells its delegate, as a discovery.
    package func retryBecameDue() {
        awaitsRetry = false
        refreshDiscovery()
    }

    package func setPace(_ new: SensorPace) {
        pace = new
        paces.append(new)
    }

    /// Empties ``paces``, keeping its storage with room for at least `capacity` paces, so that recording that many
    /// again allocates nothing.
    package func forgetPaces(reserving capacity: Int = 0) {
        paces.removeAll(keepingCapacity: true)
        paces.reserveCapacity(capacity)
    }

    /// The status becomes `new` (a device removed: `.absent`; a failed capture: `.failed`).
    package func report(_ new: SensorState) {
        guard new != status, !isClosed else { return }
        let previous = status
        status = new
        delegate?.statusChanged(at: location, from: previous, to: new)
    }
}

/// Hands the engine the given fake sensors: the display's, and the base's (one without an accelerometer unless one
/// is given).
package final class FakeSensorFactory: SensorFactory {
    private var display: FakeSensor?
    private var base: FakeSensor?
    /// Every sensor made, in order: the two given first, then replacements with the same accelerometers.
    package private(set) var made: [FakeSensor] = []

    package init(display: FakeSensor, base: FakeSensor?) {
        self.display = display
        self.base = base ?? FakeSensor(accelerometer: nil)
    }

    /// The given sensor for the location the first time; a new one with the same accelerometer after that (the
    /// engine replaced its sensors).
    package func makeSensor(options: SensorOptions, reports: SensorRecipients) -> any EngineSensor {
        let isBase = options.location == .base
        let given = isBase ? base : display
        let sensor =
            given.map { $0.isClosed ? FakeSensor(accelerometer: $0.accelerometer) : $0 }
            ?? FakeSensor(accelerometer: nil)
        if isBase { base = sensor } else { display = sensor }
        sensor.location = options.location
        sensor.delegate = reports.delegate
        made.append(sensor)
        return sensor
    }

    package var now: Double { 0 }
}

/// Drops everything the engine tells: for measuring or driving the engine alone.
package final class DiscardingOutput: EngineOutput {
    package init() {}
    package func deliver(_ line: [UInt8], to generation: GenerationCounter) {}
    package func stateChanged(to published: PublishedState) {}
    package func tiltChanged(to tilt: DeviceTilt) {}
}
