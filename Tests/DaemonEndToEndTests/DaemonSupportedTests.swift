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
            var rig = try await GeneratingDaemon(configuration: "[Policy]\nSupported=portrait\n")
            let daemon = rig.daemon
            #expect(rig.begun.result?["state"]?["interface"]?.string == "unknown", "\(rig.begun)")

            // Held as a laptop (landscape): the device says so, the interface takes the only allowed orientation.
            let change = try await rig.turn(to: .normal)
            #expect(change.map(\.event) == ["device", "interface"], "\(change)")
            #expect(change.last?.state?["device"]?.string == "landscape-left", "\(change)")
            #expect(change.last?.state?["interface"]?.string == "portrait", "\(change)")
            #expect(change.last?.state?["rotation"]?.integer == 90, "\(change)")
            #expect(await daemon.stop() == .exited(0), "\(daemon.process.report)")
        }
    }
}
