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
import Testing

/// `orientd calibrate`'s help and usage errors (the calibration itself runs on emulated devices, in
/// SensorCaptureTests).
@Suite("orientd calibrate, help and usage")
struct CalibrateCommandTests {
    @Test func helpSaysWhatUprightMeansAndWhereTheResultGoes() throws {
        let result = try CommandRunner.run(try CommandRunner.orientd(), ["calibrate", "--help"])
        #expect(result.status == 0, "\(result.standardError)")
        let help = result.standardOutput.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for phrase in [
            "/etc/udev/hwdb.d/61-sensor-local.hwdb", "60-sensor.rules", "portrait", "--hwdb-root", "--json",
            "--apply", "logo appears at power-on", "the readings come through the daemon", "$ORIENTD_SOCKET",
        ] {
            #expect(help.contains(phrase), "\(phrase) missing from:\n\(result.standardOutput)")
        }
        let top = try CommandRunner.run(try CommandRunner.orientd(), ["--help"])
        #expect(top.standardOutput.contains("calibrate"), "\(top.standardOutput)")
    }

    @Test(arguments: [["--apply", "yes"], ["--step-timeout", "0"], ["--step-timeout", "x"]])
    func badOptionsAreUsageErrors(arguments: [String]) throws {
        let result = try CommandRunner.run(try CommandRunner.orientd(), ["calibrate"] + arguments)
        #expect(result.status == 2, "\(result.standardOutput)\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }
}
