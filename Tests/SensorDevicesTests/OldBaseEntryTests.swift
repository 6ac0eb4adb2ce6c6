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
import OrientationCore
import Testing

@testable import SensorDevices

/// Base entries of the local hwdb file that calibrate wrote before it used systemd's frame, and the sign of z of
/// ChromeOS's entries.
@Suite struct OldBaseEntryTests {
    static let key = "sensor:modalias:acpi:KIOX010A:KIOX010A:dmi:bvnAcme:svnAcme:pnBook11:rvnAcme:"
    static let file = """
        # Written by hand
        sensor:modalias:acpi:BOSC0200*:dmi:*:svnOther:pnTab:*
         ACCEL_MOUNT_MATRIX=0, 1, 0; 1, 0, 0; 0, 0, 1

        # Acme Book11 (kxcjk1013, display accelerometer)
        sensor:modalias:acpi:KIOX000A*:dmi:*:svnAcme:pnBook11:*
         ACCEL_MOUNT_MATRIX=0, -1, 0; 1, 0, 0; 0, 0, 1

        # Acme Book11 (kxcjk1013, base accelerometer)
        sensor:modalias:acpi:KIOX010A*:dmi:*:svnAcme:pnBook11:*
         ACCEL_MOUNT_MATRIX=1, 0, 0; 0, -1, 0; 0, 0, -1

        """

    @Test func anOldBaseEntryForTheKeyAndMatrixIsFound() throws {
        let matrix = try MountMatrix(parsing: "1, 0, 0; 0, -1, 0; 0, 0, -1")
        #expect(
            OldBaseEntry.find(in: Self.file, key: Self.key, matrix: matrix)
                == "sensor:modalias:acpi:KIOX010A*:dmi:*:svnAcme:pnBook11:*"
        )
        #expect(OldBaseEntry.all(in: Self.file) == ["sensor:modalias:acpi:KIOX010A*:dmi:*:svnAcme:pnBook11:*"])
    }

    /// Another matrix wins (an entry of another file), another machine, or the entry in the current form: nothing.
    @Test func otherMatricesKeysAndCurrentEntriesAreNotOld() throws {
        let matrix = try MountMatrix(parsing: "1, 0, 0; 0, -1, 0; 0, 0, -1")
        #expect(OldBaseEntry.find(in: Self.file, key: Self.key, matrix: .identity) == nil)
        let otherMachine = Self.key.replacingOccurrences(of: "pnBook11", with: "pnBook12")
        #expect(OldBaseEntry.find(in: Self.file, key: otherMachine, matrix: matrix) == nil)
        let current = Self.file.replacingOccurrences(
            of: "(kxcjk1013, base accelerometer)",
            with: "(kxcjk1013\(OldBaseEntry.currentEnding)"
        )
        #expect(OldBaseEntry.find(in: current, key: Self.key, matrix: matrix) == nil)
        #expect(OldBaseEntry.all(in: current).isEmpty)
    }

    /// systemd's Chromebook entries have HID's sign of z: for cros-ec they are used with z turned, and turned back for
    /// the hwdb; for any other driver, and for a matrix that is a rotation already, as they are.
    @Test func crosEcEntriesAreUsedWithTheSignOfZTheControllerReads() throws {
        let display = try MountMatrix(parsing: "-1, 0, 0; 0, -1, 0; 0, 0, -1")
        let base = try MountMatrix(parsing: "-1, 0, 0; 0, 1, 0; 0, 0, 1")
        #expect("\(CrosEcFrame.inUse(hwdb: display, driver: "cros-ec-accel"))" == "-1, 0, 0; 0, -1, 0; 0, 0, 1")
        #expect("\(CrosEcFrame.inUse(hwdb: base, driver: "cros-ec-accel-legacy"))" == "-1, 0, 0; 0, 1, 0; 0, 0, -1")
        #expect(CrosEcFrame.inUse(hwdb: display, driver: "kxcjk1013") == display)
        let rotation = try MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1")
        #expect(CrosEcFrame.inUse(hwdb: rotation, driver: "cros-ec-accel") == rotation)
        for matrix in [display, base, rotation] {
            let inUse = CrosEcFrame.inUse(hwdb: matrix, driver: "cros-ec-accel")
            #expect(
                CrosEcFrame.hwdb(inUse: inUse, driver: "cros-ec-accel")
                    == (matrix.determinant < 0 ? matrix : matrix.zReflected)
            )
        }
    }
}
