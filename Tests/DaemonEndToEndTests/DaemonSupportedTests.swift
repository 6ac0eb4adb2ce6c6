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

import Foundation
import OrientdTestKit
import Testing

extension EmulatedDeviceTests {
    /// `[Policy] Supported=` that excludes the pose the machine is held in (ORIENTATION.md's resolution rule): the
    /// first classification gives the preferred or first allowed orientation, not `unknown` until the device is
    /// turned to an allowed pose.
    @Suite struct DaemonSupportedTests {
        @Test func supportedPortraitOnAMachineHeldInLandscapeResolvesToPortrait() async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let sandbox = try DaemonSandbox()
            let config = sandbox.directory + "/orientd.conf"
            try "[Policy]\nSupported=portrait\n".write(toFile: config, atomically: true, encoding: .utf8)
            let daemon = try await RunningDaemon(
                testbed: testbed,
                sandbox: sandbox,
                arguments: RunningDaemon.defaultArguments + ["--config", config]
            )
            let client = try daemon.connect()
            var feed = AccelerometerFeed(fixture: fixture, testbed: testbed)
            let begun = try await client.call("begin")
            #expect(begun.result?["state"]?["interface"]?.string == "unknown", "\(begun)")
            _ = try await client.nextEvent()
            await daemon.waitForBufferEnable("1", fixture)

            // Held as a laptop (landscape): the device says so, the interface takes the only allowed orientation.
            try feed.hold(.normal)
            let change = try await client.nextChange(timeout: .seconds(10), "the first classification")
            #expect(change.map(\.event) == ["device", "interface"], "\(change)")
            #expect(change.last?.state?["device"]?.string == "landscape-left", "\(change)")
            #expect(change.last?.state?["interface"]?.string == "portrait", "\(change)")
            #expect(change.last?.state?["rotation"]?.integer == 90, "\(change)")
            #expect(await daemon.stop() == .exited(0), "\(daemon.process.report)")
        }
    }
}
