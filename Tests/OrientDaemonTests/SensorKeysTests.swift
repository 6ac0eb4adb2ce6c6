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

import SensorDevices
import Testing

@testable import OrientDaemon

/// The `[Sensor]` keys are the sensor options' own spelling (``SensorOptions/Setting``), not a second copy.
@Suite struct SensorKeysTests {
    @Test func theSensorSectionHoldsExactlyTheSensorOptionsWithAKey() {
        let keys = ConfigurationKey.all.filter { $0.section == "Sensor" }
        let settings = SensorOptions.Setting.allCases.filter { $0.configurationKey != nil }
        #expect(keys.map(\.name) == settings.compactMap(\.configurationKey))
    }

    /// Writing a key's documented default in the file is allowed and changes nothing: the text shown as the default
    /// (by `check-config` and in errors) is the value the daemon runs with when the key is absent.
    @Test func eachWrittenDefaultIsAllowedAndIsTheDefault() {
        for key in ConfigurationKey.all.filter({ $0.section == "Sensor" }) {
            #expect(key.check(key.defaultValue) == nil, "\(key.qualifiedName)=\(key.defaultValue)")
            var settings = DaemonSettings()
            key.apply(key.defaultValue, &settings)
            #expect(settings.sensor == DaemonSettings().sensor, "\(key.qualifiedName)=\(key.defaultValue)")
        }
    }

    /// CONFIG.md's defaults of the `[Sensor]` keys it fixes.
    @Test(arguments: [("Device", ""), ("URI", ""), ("Rate", "20"), ("MountMatrix", ""), ("PollFallbackSec", "2")])
    func theDefaultsAreCONFIGs(name: String, text: String) {
        #expect(ConfigurationKey.named(name, in: "Sensor")?.defaultValue == text)
    }
}
