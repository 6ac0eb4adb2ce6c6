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

import OrientdTestKit
import Testing

extension EmulatedDeviceTests {
    /// The only generating connection stops reading while the device turns: it is dropped in the
    /// middle of capturing scans, which stops the sensor from inside its own read. The daemon must
    /// stop the sensor cleanly and keep serving.
    @Suite struct DaemonSoleSlowClientTests {
        @Test func droppingTheOnlyGeneratingClientMidCaptureStopsTheSensorAndTheDaemonServesOn() async throws {
            let rig = try await GeneratingDaemon()
            let (fixture, daemon) = (rig.fixture, rig.daemon)

            // Each turn is a change with two events (device, interface) of about 450 bytes; the rig's
            // client, the sluggard, never reads after its sensor event, so its output passes 256 KiB
            // within a few hundred turns.
            // An observer that never begins (so it gets no events) watches the connection count.
            let observer = try daemon.connect()
            var feed = rig.feed
            var turns = 0
            var dropped = false
            while turns < 3000 && !dropped {
                try feed.hold(turns % 2 == 0 ? .leftUp : .normal, seconds: 0.4)
                turns += 1
                if turns % 20 == 0 {
                    dropped = try await observer.call("status").result?["clients"]?.integer == 1
                }
            }
            #expect(dropped, "not dropped after \(turns) turns")

            // Nobody generates now: the sensor is stopped and the device restored, and the daemon answers.
            #expect(await daemon.waitForBufferEnable("0", fixture))
            let status = try await observer.call("status")
            #expect(status.result?["generation_total"]?.integer == 0, "\(status)")
            #expect(status.result?["state"]?["sensor"]?.string == "stopped", "\(status)")
            #expect(daemon.process.exitStatus == nil, "\(daemon.process.report)")
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
