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
    /// iio-sensor-proxy's floor: an accelerometer found resting below 10 Hz is raised to 10 Hz before anyone asks
    /// for it, and stays there; a capture puts back the raised rate, not the old one.
    @Suite struct DaemonSamplingFloorTests {
        /// At 5.2 Hz, buffered or polled, beside a gyroscope's rate of 5 Hz on the same device.
        @Test(arguments: [AccelerometerFixture.Capture.buffered, .pollOnly])
        func aRateBelowTenHertzIsRaisedWhenTheAccelerometerIsFound(capture: AccelerometerFixture.Capture) async throws {
            var fixture = AccelerometerFixture()
            fixture.capture = capture
            fixture.samplingFrequency = "5.2"
            fixture.extraAttributes = [("in_anglvel_sampling_frequency", "5")]
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox())
            let rate = { (name: String) in try? testbed.attribute(fixture.syspath, name) }

            // Serving, and nobody has asked for the sensor yet.
            let written = FileManager.default.contents(
                atPath: testbed.rootDirectory + fixture.syspath + "/sampling_frequency"
            )
            #expect(written == Data("10".utf8), "the bare number, as iio-sensor-proxy writes it")
            #expect(rate("in_anglvel_sampling_frequency") == "5", "a gyroscope's rate is not the accelerometer's")
            let log = await daemon.log(showing: "a sampling frequency below 10 Hz is raised")
            #expect(log.contains("was=5.2") && log.contains("now=10"), "\(log)")

            let client = try daemon.connect()
            _ = try await client.call("begin")
            if capture == .buffered {
                #expect(await daemon.waitForBufferEnable("1", fixture))
                #expect(rate("sampling_frequency") == "50", "the capture's own rate (--rate 50)")
            } else {
                _ = try await client.events(until: "the first orientation") { $0.event == "device" }
            }
            _ = try await client.call("end")
            if capture == .buffered { #expect(await daemon.waitForBufferEnable("0", fixture)) }
            #expect(rate("sampling_frequency") == "10", "the capture puts back the raised rate")
            #expect(await daemon.stop() == .exited(0))
            #expect(rate("sampling_frequency") == "10", "left raised")
        }
    }
}
