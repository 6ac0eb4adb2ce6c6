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
import Testing

@testable import OrientDaemon

/// The `[Sensor]` keys are the sensor options' own spelling (``SensorOptions/Setting``), not a second copy.
@Suite struct SensorKeysTests {
    @Test func theSensorSectionHoldsExactlyTheSensorOptionsWithAKeyAndTheirDefaults() {
        let keys = ConfigurationKey.all.filter { $0.section == "Sensor" }
        let settings = SensorOptions.Setting.allCases.filter { $0.configurationKey != nil }
        #expect(keys.map(\.name) == settings.compactMap(\.configurationKey))
        for setting in settings {
            let key = ConfigurationKey.named(setting.configurationKey ?? "", in: "Sensor")
            #expect(key?.defaultValue == setting.defaultText)
        }
    }
}
