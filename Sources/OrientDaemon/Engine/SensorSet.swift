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

import IIOSensor
import OrientationCore

/// The sensors' lifecycle: the display accelerometer's sensor and the base one (for the hinge), made together,
/// started and stopped together as generation begins and ends, paced together (the base follows the display: the
/// hinge needs no more, and a convertible at rest should not be woken by its base alone), replaced together when
/// the sensor options change, and closed together.
final class SensorSet {
    private let factory: any SensorFactory
    /// Where the sensors' samples go, straight from each, and their status.
    private let reports: SensorReports
    /// The options the sensors were made with (the base one's derived: ``SensorOptions/forBase``).
    private(set) var options: SensorOptions
    /// The display accelerometer's sensor: the orientation.
    private(set) var display: any EngineSensor
    /// The base accelerometer's sensor: the hinge angle.
    private(set) var base: any EngineSensor

    /// Makes both sensors, stopped, telling `reports` (the engine, which owns this set: held unowned).
    init(factory: any SensorFactory, options: SensorOptions, reports: SensorReports) {
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
}
