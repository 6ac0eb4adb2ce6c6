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
    /// The poll path: libiio reads `in_accel_*_raw` afresh on every read, so testbed changes are seen at once.
    @Suite struct PollTests {
        /// Runs `iio_attr -c <device> <channel> raw` and returns what it printed.
        static func readRaw(_ testbed: Testbed, device: String, channel: String) async throws -> String {
            let child = try ChildProcess("iio_attr", ["-c", device, channel, "raw"], testbed: testbed)
            let status = await child.wait()
            #expect(status == .exited(0), "\(child.report)")
            return child.outputText.trimmingPrefix(while: \.isWhitespace).split(separator: "\n").first.map(String.init)
                ?? ""
        }

        @Test(arguments: [AccelerometerFixture.Capture.buffered, .pollOnly])
        func changedValueSeenByTheNextRead(capture: AccelerometerFixture.Capture) async throws {
            var fixture = AccelerometerFixture()
            fixture.capture = capture
            fixture.raw = AxisValues(x: 123, y: -1000, z: 0)
            let testbed = Testbed()
            try testbed.add(fixture.description)
            #expect(try await Self.readRaw(testbed, device: "accel_3d", channel: "accel_x") == "123")

            try testbed.setAttribute(fixture.syspath, "in_accel_x_raw", "-4567")
            #expect(try await Self.readRaw(testbed, device: "accel_3d", channel: "accel_x") == "-4567")
            #expect(try await Self.readRaw(testbed, device: "accel_3d", channel: "accel_y") == "-1000")
        }

        @Test func writesByLibiioCarryATrailingNul() async throws {
            var fixture = AccelerometerFixture()
            fixture.hysteresis = "7"
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let child = try ChildProcess(
                "iio_attr",
                ["-c", "accel_3d", "accel_x", "hysteresis", "0"],
                testbed: testbed
            )
            #expect(await child.wait() == .exited(0), "\(child.report)")
            let path = testbed.rootDirectory + fixture.syspath + "/in_accel_hysteresis"
            #expect(Array(try #require(FileManager.default.contents(atPath: path))) == [UInt8(ascii: "0"), 0])
            #expect(try testbed.attribute(fixture.syspath, "in_accel_hysteresis") == "0")
        }
    }
}
