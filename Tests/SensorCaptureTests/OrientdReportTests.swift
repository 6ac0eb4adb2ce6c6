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
    /// `orientd report` on an emulated machine: the sections a maintainer needs, the hwdb match line of each
    /// sensor, a short recording, and none of the unit's serial numbers.
    @Suite struct OrientdReportTests {
        @Test func theReportHoldsWhatAMaintainerNeedsAndNoSerial() async throws {
            var fixture = AccelerometerFixture()
            fixture.name = "bmc150_accel"
            fixture.capture = .pollOnly
            fixture.trigger = .none
            fixture.timestamp = nil
            fixture.mountMatrices = [.inMountMatrix: "0, 1, 0; 1, 0, 0; 0, 0, 1"]
            fixture.parentPath = "/devices/pci0000:00/i2c-0/i2c-BOSC0200:00"
            let testbed = Testbed()
            try testbed.add(
                "P: /devices/virtual/dmi/id\nE: SUBSYSTEM=dmi\n"
                    + "A: modalias=dmi:bvnAcme:bvr1.02:svnAcme:pnTab10:pvr1.0:\\n\nA: sys_vendor=Acme\\n\n"
                    + "A: product_name=Tab10\\n\nA: product_serial=SN-12345-SECRET\\n\n"
                    + "A: product_uuid=0f1e2d3c-SECRET\\n\n"
            )
            try testbed.add(
                "P: /devices/pci0000:00/i2c-0/i2c-BOSC0200:00\nE: SUBSYSTEM=i2c\nA: modalias=acpi:BOSC0200:BOSC0200:\\n\n"
            )
            try testbed.add(fixture.description)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-report-\(UUID())")
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("report.txt").path
            let child = try ChildProcess.orientd(["report", "--seconds", "1", "--output", file], testbed: testbed)
            #expect(await child.wait() == .exited(0), "\(child.report)")
            #expect(child.errorText.contains("left edge points up"), "the user is told what to do: \(child.report)")
            let report = try String(contentsOfFile: file, encoding: .utf8)
            for heading in [
                "## Versions", "## Machine (DMI)", "## Accelerometers", "## Configuration", "## Status", "## Journal",
                "## Recording",
            ] {
                #expect(report.contains(heading), "\(heading) missing:\n\(report)")
            }
            #expect(report.contains("product_name: Tab10"), "\(report)")
            #expect(!report.contains("SECRET"), "a serial number or UUID in the report:\n\(report)")
            #expect(report.contains("### iio:device0 bmc150_accel"), "\(report)")
            #expect(report.contains("matrix: 0, 1, 0; 1, 0, 0; 0, 0, 1 (sysfs in_mount_matrix)"), "\(report)")
            #expect(
                report.contains(
                    "hwdb key: sensor:modalias:acpi:BOSC0200:BOSC0200::dmi:bvnAcme:bvr1.02:svnAcme:pnTab10:pvr1.0:"
                ),
                "\(report)"
            )
            #expect(
                report.contains("hwdb match line: sensor:modalias:acpi:BOSC0200*:dmi:*:svnAcme:pnTab10:*"),
                "\(report)"
            )
            #expect(report.contains("in_accel_x_raw="), "the attributes: \(report)")
            #expect(report.contains("# orientd-trace 1"), "the recording: \(report)")
        }
    }
}
