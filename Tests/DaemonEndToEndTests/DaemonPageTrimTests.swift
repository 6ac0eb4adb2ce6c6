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
    /// The daemon gives back the code pages it has stopped using: once set up, and when the device settles while a
    /// client generates; what it needs again comes back, so a turn after that is decided as before.
    @Suite struct DaemonPageTrimTests {
        @Test func pagesAreGivenBackOnceSetUpAndWhenTheDeviceSettles() async throws {
            let testbed = Testbed()
            let (daemon, client) = try await DaemonPaceTests.polling(
                idleRate: "2",
                testbed: testbed,
                arguments: ["--verbose"]
            )
            let fixture = AccelerometerFixture()
            let log = { daemon.process.errorText }
            let trimmed = { (mode: String) in
                log().split(separator: "\n").contains {
                    $0.contains("unused pages given back") && $0.contains("mode=\(mode)")
                }
            }
            #expect(
                await daemon.process.waitUntil("start-up pages given back", timeout: .seconds(10)) {
                    trimmed("evict")
                },
                "\(log())"
            )
            // A turn after the start-up's trim: the code of motion and of the events comes back.
            try testbed.setAttribute(fixture.syspath, "in_accel_x_raw", "1000")
            try testbed.setAttribute(fixture.syspath, "in_accel_y_raw", "0")
            let turned = try await client.events(until: "portrait") { $0.state?["device"]?.string == "portrait" }
            #expect(turned.contains { $0.event == "device" && $0.previous == "landscape-left" }, "\(turned)")
            let serving = ProcessResources(pid: daemon.process.pid).residentKiB
            // Still: the idle pace after a second, the pages a second after that, but not within ten seconds of
            // the start-up's.
            #expect(
                await daemon.process.waitUntil("pages given back once settled", timeout: .seconds(20)) {
                    trimmed("unmap")
                },
                "\(log())"
            )
            let settled = ProcessResources(pid: daemon.process.pid).residentKiB
            #expect(settled < serving, "resident \(serving) kB after the turn, \(settled) kB once settled")

            try testbed.setAttribute(fixture.syspath, "in_accel_x_raw", "0")
            try testbed.setAttribute(fixture.syspath, "in_accel_y_raw", "-1000")
            let back = try await client.events(until: "landscape-left") {
                $0.state?["device"]?.string == "landscape-left"
            }
            #expect(back.contains { $0.event == "device" && $0.previous == "portrait" }, "\(back)")
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
