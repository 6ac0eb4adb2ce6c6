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

import Testing
import UdevSupport

@testable import SensorDevices

/// Which uevents make a polled sensor look at every device again: those that can change what it finds.
@Suite struct ClaimedSensorHotplugTests {
    static let light: String? = "/sys/devices/platform/ACPI0008:00/iio:device1"
    static let proximitySwitch: String? = "/sys/devices/platform/gpio-keys/input/input4/event4"

    @Test(arguments: [
        // A device that comes or changes may be the sensor, or go before the one in use.
        (HotplugAction.add, "iio:device2", "iio", ClaimedSensorKind.light, light, true),
        (.change, "iio:device2", "iio", .compass, nil, true),
        (.bind, "applesmc.768", "platform", .light, nil, true),
        (.add, "event7", "input", .proximity, proximitySwitch, true),
        // Of the input subsystem, only event nodes.
        (.add, "input7", "input", .proximity, nil, false),
        (.remove, "mouse2", "input", .proximity, proximitySwitch, false),
        (.change, "js0", "input", .proximity, nil, false),
        // A device that goes: only the one in use, and for light a trigger.
        (.remove, "iio:device1", "iio", .light, light, true),
        (.unbind, "iio:device1", "iio", .light, light, true),
        (.remove, "event4", "input", .proximity, proximitySwitch, true),
        (.remove, "iio:device2", "iio", .light, light, false),
        (.remove, "iio:device11", "iio", .light, light, false),
        (.remove, "event7", "input", .proximity, proximitySwitch, false),
        (.remove, "iio:device0", "iio", .compass, nil, false),
        (.remove, "trigger3", "iio", .light, light, true),
        (.remove, "trigger3", "iio", .compass, nil, false),
        // Neither come nor gone.
        (.other("move"), "iio:device1", "iio", .light, light, false),
        (.other("online"), "event4", "input", .proximity, proximitySwitch, false),
    ])
    func anEventThatCannotChangeWhatIsFoundIsLeftOut(
        action: HotplugAction,
        sysname: String,
        subsystem: String,
        kind: ClaimedSensorKind,
        inUse: String?,
        looks: Bool
    ) {
        #expect(
            ClaimedSensor.eventMayChangeDiscovery(
                action,
                sysname: sysname,
                subsystem: subsystem,
                kind: kind,
                inUse: inUse
            ) == looks
        )
    }
}
