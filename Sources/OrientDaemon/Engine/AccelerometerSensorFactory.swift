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

import EventLoop
import Logging
import SensorDevices

/// The daemon's sensors on its event loop: for the display a ``DisplaySensor`` (the IIO accelerometer, or an input
/// one when there is no IIO one), for the base an ``AccelerometerSensor``, whose messages carry `sensor=base`.
struct AccelerometerSensorFactory: SensorFactory {
    let loop: EventLoop
    let logger: Logger

    func makeSensor(options: SensorOptions, reports: SensorRecipients) -> any EngineSensor {
        guard options.location == .base else {
            return DisplaySensor(loop: loop, options: options, logger: logger, reports: reports)
        }
        var logger = logger
        logger[metadataKey: "sensor"] = "base"
        return AccelerometerSensor(loop: loop, options: options, logger: logger, reports: reports)
    }

    var now: Double { loop.now }
}
