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

import OrientationCore
import Testing

@testable import SensorDevices

@Suite struct SensorOptionsTests {
    /// The options with `setting` changed from its default.
    private static func changed(_ setting: SensorOptions.Setting) -> SensorOptions {
        var options = SensorOptions()
        switch setting {
        case .device: options.device = "iio:device3"
        case .uri: options.uri = "ip:192.0.2.1"
        case .rate: options.rate = 50
        case .idleRate: options.idleRate = 5
        case .mountMatrix: options.mountMatrix = try? MountMatrix([[0, 1, 0], [1, 0, 0], [0, 0, 1]])
        case .pollFallback: options.pollFallback = 4
        case .forcePolling: options.forcePolling = true
        }
        return options
    }

    @Test(arguments: SensorOptions.Setting.allCases)
    func aReloadThatChangesAnyOptionReplacesTheSensor(_ setting: SensorOptions.Setting) {
        #expect(Self.changed(setting).requiresNewSensor(comparedWith: SensorOptions()))
    }

    @Test func theSameOptionsKeepTheSensor() {
        #expect(!SensorOptions().requiresNewSensor(comparedWith: SensorOptions()))
    }

    @Test(arguments: SensorOptions.Setting.allCases)
    func everyOptionIsSpelledSomewhereAndItsDefaultIsInItsRange(_ setting: SensorOptions.Setting) {
        #expect(setting.configurationKey != nil || setting.commandLineOption != nil)
        if let range = setting.range, let value = Double(setting.defaultText) {
            #expect(range.contains(value))
            #expect(setting.rangeProblem(value) == nil)
            #expect(setting.rangeProblem(range.upperBound + 1) != nil)
        }
    }
}
