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
    /// libiio's `iio_info` sees the fixtures as real devices: channels, formats, attributes, triggers.
    @Suite struct IIOInfoTests {
        /// Runs `iio_info` on the testbed and parses what it printed; a non-zero exit is a failure.
        static func iioInfo(_ testbed: Testbed) async throws -> IIOInfoReport {
            let child = try ChildProcess("iio_info", testbed: testbed)
            let status = await child.wait()
            #expect(status == .exited(0), "\(child.report)")
            return IIOInfoReport(child.outputText)
        }

        @Test func hidSensorWithTimestampAndTrigger() async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let report = try await Self.iioInfo(testbed)

            let device = try #require(report.device("iio:device0"))
            #expect(device.name == "accel_3d")
            #expect(device.isBufferCapable)
            #expect(device.channels.map(\.id).sorted() == ["accel_x", "accel_y", "accel_z", "timestamp"])
            for (id, index) in [("accel_x", 0), ("accel_y", 1), ("accel_z", 2)] {
                #expect(device.channel(id)?.index == index)
                #expect(device.channel(id)?.format == "le:S16/16>>0")
                #expect(device.channel(id)?.attributes["scale"] == "0.009806650")
            }
            #expect(device.channel("timestamp")?.format == "le:S64/64>>0")
            #expect(device.channel("accel_y")?.attributes["raw"] == "-1000")
            #expect(device.attributes["sampling_frequency"] == "10")
            #expect(report.device("trigger0")?.name == "accel_3d-dev0")
        }

        @Test func everyCalibrationAndLocationSource() async throws {
            var fixture = AccelerometerFixture(scanType: "be:s12/16>>4", order: [.z, .x, .y], timestamp: false)
            fixture.scale = .perAxis(AxisValues(x: "0.1", y: "0.2", z: "0.3"))
            fixture.offset = .shared("5")
            fixture.samplingFrequencyAvailable = "12.5 25 50"
            fixture.hysteresis = "3"
            fixture.mountMatrices = [
                .udev: "0, 1, 0; 1, 0, 0; 0, 0, 1", .mountMatrix: "1, 0, 0; 0, 1, 0; 0, 0, 1",
                .accelMountMatrix: "-1, 0, 0; 0, 1, 0; 0, 0, 1", .inMountMatrix: "1, 0, 0; 0, -1, 0; 0, 0, 1",
            ]
            fixture.locations = [.udev: "display", .label: "accel-display", .location: "lid"]
            fixture.trigger = .nameSuffixed
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let report = try await Self.iioInfo(testbed)

            let device = try #require(report.device("iio:device0"))
            // libiio 0.24 shows the label only in the summary (iio_device_get_label), never as an attribute.
            #expect(device.summary == "accel_3d (label: accel-display) (buffer capable)")
            #expect(device.channels.map(\.id).sorted() == ["accel_x", "accel_y", "accel_z", "mount"])
            #expect(device.channel("accel_z")?.index == 0)
            #expect(device.channel("accel_x")?.index == 1)
            #expect(device.channel("accel_y")?.index == 2)
            #expect(device.channel("accel_x")?.format == "be:s12/16>>4")
            #expect(device.channel("accel_x")?.attributes["scale"] == "0.1")
            #expect(device.channel("accel_z")?.attributes["scale"] == "0.3")
            #expect(device.channel("accel_y")?.attributes["offset"] == "5")
            #expect(device.channel("accel_x")?.attributes["hysteresis"] == "3")
            // in_accel_mount_matrix is a per-channel attribute; in_mount_matrix a channel `mount` with `matrix`.
            #expect(device.channel("accel_x")?.attributes["mount_matrix"] == "-1, 0, 0; 0, 1, 0; 0, 0, 1")
            #expect(device.channel("mount")?.attributes["matrix"] == "1, 0, 0; 0, -1, 0; 0, 0, 1")
            #expect(device.attributes["mount_matrix"] == "1, 0, 0; 0, 1, 0; 0, 0, 1")
            #expect(device.attributes["location"] == "lid")
            #expect(device.attributes["sampling_frequency_available"] == "12.5 25 50")
            #expect(report.device("trigger0")?.name == "accel_3d-trigger")
            // udev properties are not libiio's business, but they are in the device's uevent file for libudev.
            let properties = Dictionary(try testbed.properties(of: fixture.syspath), uniquingKeysWith: { a, _ in a })
            #expect(properties["ACCEL_MOUNT_MATRIX"] == "0, 1, 0; 1, 0, 0; 0, 0, 1")
            #expect(properties["ACCEL_LOCATION"] == "display")
        }

        @Test func pollOnlyDeviceWithDeviceWideScale() async throws {
            var fixture = AccelerometerFixture()
            fixture.name = "cros-ec-accel"
            fixture.capture = .pollOnly
            fixture.trigger = .none
            fixture.scale = .device("0.0047884")
            fixture.raw = AxisValues(x: 7, y: -2048, z: 12)
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let report = try await Self.iioInfo(testbed)

            let device = try #require(report.device("iio:device0"))
            #expect(device.name == "cros-ec-accel")
            #expect(!device.isBufferCapable)
            #expect(device.channels.map(\.id).sorted() == ["accel_x", "accel_y", "accel_z"])
            #expect(device.channels.allSatisfy { $0.index == nil && $0.format == nil })
            #expect(device.channel("accel_y")?.attributes["raw"] == "-2048")
            #expect(device.attributes["scale"] == "0.0047884")
            #expect(report.devices.count == 1)
        }

        @Test(arguments: [false, true])
        func displayAndBaseBothListed(baseFirst: Bool) async throws {
            var display = AccelerometerFixture()
            display.name = "cros-ec-accel"
            display.locations = [.label: "accel-display"]
            display.trigger = .none
            var base = display
            base.locations = [.label: "accel-base"]
            base.raw = AxisValues(x: 0, y: 0, z: 1000)
            (display.deviceNumber, base.deviceNumber) = baseFirst ? (1, 0) : (0, 1)
            let testbed = Testbed()
            try testbed.add(display.description + "\n" + base.description)
            let report = try await Self.iioInfo(testbed)

            let listed = report.devices.filter { $0.id.hasPrefix("iio:device") }
            #expect(listed.count == 2)
            #expect(
                report.device(display.deviceName)?.summary == "cros-ec-accel (label: accel-display) (buffer capable)"
            )
            #expect(report.device(base.deviceName)?.summary == "cros-ec-accel (label: accel-base) (buffer capable)")
            #expect(report.device(base.deviceName)?.channel("accel_z")?.attributes["raw"] == "1000")
        }

        @Test func emptyTestbedFailsCleanly() async throws {
            let child = try ChildProcess("iio_info", testbed: Testbed())
            let status = await child.wait()
            #expect(status == .exited(1), "\(child.report)")
            #expect(child.errorText.contains("Unable to create Local IIO context : No such file or directory"))
        }

        /// With the devices gone the bus directory stays, empty; libiio 0.24 then fails exactly as with no bus.
        @Test func allDevicesRemovedFailsTheSameWay() async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            try testbed.removeDevice(fixture.syspath)
            try testbed.removeDevice(fixture.triggerSyspath)
            let child = try ChildProcess("iio_info", testbed: testbed)
            let status = await child.wait()
            #expect(status == .exited(1), "\(child.report)")
            #expect(child.errorText.contains("Unable to create Local IIO context : No such file or directory"))
        }
    }
}
