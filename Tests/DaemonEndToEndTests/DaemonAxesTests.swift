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
    /// A hand-written hwdb matrix that cannot be right (the duplicated axis of the Bush tablet's entry in
    /// 60-sensor.hwdb): said once in the journal when the sensor starts, and in `status` and `orientctl status`,
    /// each saying to run `orientd calibrate`.
    @Suite struct DaemonAxesTests {
        /// A new hwdb entry applied while the daemon captures (the property changed, a `change` uevent): the new
        /// matrix is used without a restart.
        @Test func aNewMatrixFromUdevIsTakenWithoutARestart() async throws {
            var fixture = AccelerometerFixture()
            fixture.mountMatrices = [.udev: "1, 0, 0; 0, 1, 0; 0, 0, 1"]
            let rig = try await GeneratingDaemon(fixture: fixture)
            let (testbed, daemon, client) = (rig.testbed, rig.daemon, rig.client)
            defer { daemon.process.terminate() }
            #expect(try await client.call("status").result?["sensor"]?["matrix"]?.string == "1, 0, 0; 0, 1, 0; 0, 0, 1")

            try testbed.setProperty(fixture.syspath, "ACCEL_MOUNT_MATRIX", "0, -1, 0; 1, 0, 0; 0, 0, 1")
            try testbed.uevent(fixture.syspath, action: "change")
            _ = await daemon.log(showing: "the mount matrix changed")
            let status = try await client.call("status").result
            #expect(
                status?["sensor"]?["matrix"]?.string == "0, -1, 0; 1, 0, 0; 0, 0, 1",
                "\(String(describing: status))"
            )
            #expect(status?["sensor"]?["status"]?.string == "active")
        }

        @Test func anImpossibleMatrixIsSaidInTheJournalAndTheStatus() async throws {
            var fixture = AccelerometerFixture()
            fixture.mountMatrices = [.udev: "1, 0, 0; 0, -1, 0; 1, 0, 0"]
            let rig = try await GeneratingDaemon(fixture: fixture)
            let (testbed, sandbox, daemon, client) = (rig.testbed, rig.sandbox, rig.daemon, rig.client)
            defer { daemon.process.terminate() }
            let log = await daemon.log(showing: "the accelerometer's axes cannot be right")
            #expect(log.contains("rows 1 and 3"), "\(log)")

            let status = try await client.call("status").result
            let axes = status?["sensor"]?["axes"]?.strings ?? []
            #expect(axes.count == 1, "\(String(describing: status))")
            #expect(axes.first?.contains("run 'orientd calibrate'") == true)

            let child = try ChildProcess.orientctl(["--socket", sandbox.socketPath, "status"], testbed: testbed)
            #expect(await child.wait() == .exited(0), "\(child.report)")
            #expect(child.outputText.contains("axes:"), "\(child.outputText)")
            #expect(child.outputText.contains("orientd calibrate"), "\(child.outputText)")

            // Started again (the last end, a new begin): not said twice.
            _ = try await client.call("end")
            _ = try await client.call("begin")
            await daemon.waitForBufferEnable("1", fixture)
            let count = daemon.process.errorText.components(separatedBy: "axes cannot be right").count - 1
            #expect(count == 1, "\(daemon.process.errorText)")
        }
    }
}
