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
    /// `orientd sensors` on emulated accelerometers: what is found, chosen and why, through the real
    /// libiio and libudev.
    @Suite struct OrientdSensorsTests {
        /// Runs `orientd sensors` with `arguments` on the devices described.
        static func sensors(_ descriptions: [String], _ arguments: [String] = []) async throws -> ChildProcess {
            let testbed = Testbed()
            for description in descriptions { try testbed.add(description) }
            let child = try ChildProcess.orientd(["sensors"] + arguments, testbed: testbed)
            await child.wait()
            return child
        }

        /// The value of `key:` in the block of `device` in the output.
        static func field(_ output: String, device: String, _ key: String) -> String? {
            var inBlock = false
            for line in output.split(separator: "\n") {
                if !line.hasPrefix(" ") {
                    inBlock = line.hasPrefix(device + " ")
                } else if inBlock, line.trimmingCharacters(in: .whitespaces).hasPrefix(key + ":") {
                    return line.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
                }
            }
            return nil
        }

        @Test func theLightProximityAndCompassSensorsAreListed() async throws {
            let devices = [
                PolledSensorFixture.hidSensorALS(raw: 10), .proximitySensor(udevNearLevel: 120), .hidSensorMagn3D(),
            ]
            let child = try await Self.sensors([AccelerometerFixture().description] + devices.map(\.description))
            #expect(child.exitStatus == .exited(0), "\(child.report)")
            let output = child.outputText
            #expect(output.contains("iio:device4 — ambient light (LightLevel), served on D-Bus"), "\(output)")
            #expect(
                Self.field(output, device: "iio:device4", "read")
                    == "in_illuminance_raw: (raw + 0) × 0.1, lux, every 0.8 s while claimed",
                "\(output)"
            )
            #expect(
                Self.field(output, device: "iio:device7", "read")
                    == "in_proximity_raw: near above 120 + 10 %, far at − 10 %, every 0.7 s while claimed",
                "\(output)"
            )
            #expect(
                Self.field(output, device: "iio:device8", "read")?.hasPrefix(
                    "in_rot_from_north_magnetic_tilt_comp_raw: (raw + 0) × 0.1, degrees"
                ) == true,
                "\(output)"
            )
            #expect(Self.field(output, device: "iio:device8", "sysfs") == devices[2].syspath, "\(output)")
        }

        @Test func theBufferOfAcpiALSAndTheLightOfApplesSMCAreListed() async throws {
            let als = PolledSensorFixture.acpiALS(illuminance: 150, deviceNumber: 3)
            let buffered = try await Self.sensors([AccelerometerFixture().description, als.description])
            #expect(buffered.exitStatus == .exited(0), "\(buffered.report)")
            #expect(
                Self.field(buffered.outputText, device: "iio:device3", "read")
                    == "/dev/iio:device3 buffer (in_illuminance, trigger acpi-als-dev3): (raw + 0) × 1, lux, as the "
                    + "kernel pushes scans while claimed; the first reading from in_illuminance_input, which is "
                    + "polled instead if the buffer cannot be read",
                "\(buffered.outputText)"
            )

            let smc = AppleSMCFixture(light: "(1,2)")
            let child = try await Self.sensors([AccelerometerFixture().description, smc.description])
            #expect(child.exitStatus == .exited(0), "\(child.report)")
            let output = child.outputText
            #expect(output.contains("applesmc.768 — ambient light (LightLevel), served on D-Bus"), "\(output)")
            #expect(
                Self.field(output, device: "applesmc.768", "read")
                    == "light (Apple SMC, (left,right)): the larger / 255 × 100, vendor, every 0.4 s while claimed",
                "\(output)"
            )
            #expect(Self.field(output, device: "applesmc.768", "sysfs") == smc.syspath, "\(output)")
        }

        /// An accelerometer of the input subsystem is listed with its node, scale and udev matrix; it is used when
        /// there is no IIO display accelerometer, and probed through its events.
        @Test func anInputAccelerometerIsListedAndProbed() async throws {
            let fixture = InputAccelerometerFixture(
                mountMatrix: "0, -1, 0; 1, 0, 0; 0, 0, 1",
                initial: AxisValues(x: 1000, y: 0, z: 0)
            )
            let testbed = Testbed()
            try fixture.add(to: testbed)
            let child = try ChildProcess.orientd(["sensors", "--probe"], testbed: testbed)
            await child.wait(timeout: .seconds(20))
            #expect(child.exitStatus == .exited(0), "\(child.report)")
            let output = child.outputText
            #expect(
                output.contains("event4 ST LIS3LV02DL Accelerometer — used: an accelerometer of the input subsystem"),
                "\(output)"
            )
            #expect(
                Self.field(output, device: "event4", "matrix")
                    == "0, -1, 0; 1, 0, 0; 0, 0, 1 (udev ACCEL_MOUNT_MATRIX)",
                "\(output)"
            )
            #expect(Self.field(output, device: "event4", "mode")?.hasPrefix("evdev (/dev/input/event4") == true)
            #expect(
                Self.field(output, device: "event4", "scale")
                    == "0.00980665 0.00980665 0.00980665 (lis3lv02d: milli-g)",
                "\(output)"
            )
            // The values held at the open, through the matrix: x' = −y = 0, y' = x = 1 g.
            #expect(output.contains("probe: evdev; first sample 0 9.80665 0 m/s²"), "\(output)")

            try testbed.add(AccelerometerFixture().description)
            let beside = try ChildProcess.orientd(["sensors"], testbed: testbed)
            await beside.wait()
            #expect(beside.exitStatus == .exited(0), "\(beside.report)")
            #expect(
                beside.outputText.contains(
                    "event4 ST LIS3LV02DL Accelerometer — not used: an IIO display accelerometer is used instead"
                ),
                "\(beside.outputText)"
            )
        }

        @Test func udevMatrixBeatsSysfs() async throws {
            var fixture = AccelerometerFixture()
            fixture.mountMatrices = [.udev: "0, -1, 0; 1, 0, 0; 0, 0, 1", .mountMatrix: "-1, 0, 0; 0, -1, 0; 0, 0, 1"]
            let child = try await Self.sensors([fixture.description])
            #expect(child.exitStatus == .exited(0), "\(child.report)")
            #expect(
                Self.field(child.outputText, device: "iio:device0", "matrix")
                    == "0, -1, 0; 1, 0, 0; 0, 0, 1 (udev ACCEL_MOUNT_MATRIX)"
            )
        }

        @Test(arguments: [
            (AccelerometerFixture.MountMatrixSource.mountMatrix, "sysfs mount_matrix"),
            (.accelMountMatrix, "sysfs in_accel_mount_matrix"),
            (.inMountMatrix, "sysfs in_mount_matrix"),
        ])
        func aBrokenUdevMatrixFallsBackToSysfs(
            source: AccelerometerFixture.MountMatrixSource,
            name: String
        )
            async throws
        {
            var fixture = AccelerometerFixture()
            fixture.mountMatrices = [.udev: "0, -1; 1, 0, 0; 0, 0, 1", source: "0, 1, 0; -1, 0, 0; 0, 0, 1"]
            let child = try await Self.sensors([fixture.description])
            #expect(child.exitStatus == .exited(0), "\(child.report)")
            #expect(
                Self.field(child.outputText, device: "iio:device0", "matrix") == "0, 1, 0; -1, 0, 0; 0, 0, 1 (\(name))"
            )
            let warning = Self.field(child.outputText, device: "iio:device0", "warning") ?? ""
            #expect(warning.contains("udev ACCEL_MOUNT_MATRIX"), "\(child.report)")
        }

        @Test func perAxisScaleAndOffset() async throws {
            var fixture = AccelerometerFixture()
            fixture.scale = .perAxis(AxisValues(x: "0.001", y: "0.002", z: "0.004"))
            fixture.offset = .perAxis(AxisValues(x: "10", y: "-20", z: "0"))
            let child = try await Self.sensors([fixture.description])
            #expect(child.exitStatus == .exited(0), "\(child.report)")
            #expect(
                Self.field(child.outputText, device: "iio:device0", "scale")?.hasPrefix("0.001 0.002 0.004") == true
            )
            #expect(Self.field(child.outputText, device: "iio:device0", "offset") == "10 -20 0")
        }

        @Test func deviceWideScaleOfCrosEC() async throws {
            var fixture = AccelerometerFixture()
            fixture.name = "cros-ec-accel"
            fixture.trigger = .none
            fixture.scale = .device("0.0047884")
            let child = try await Self.sensors([fixture.description])
            #expect(
                Self.field(child.outputText, device: "iio:device0", "scale") == "0.0047884 0.0047884 0.0047884 (scale)"
            )
            #expect(
                Self.field(child.outputText, device: "iio:device0", "mode")?.hasPrefix("buffer, no trigger") == true
            )
        }

        /// Two accelerometers, display and base, listed either way round: the display one is used.
        @Test(arguments: [true, false], [AccelerometerFixture.LocationSource.udev, .label, .location])
        func displayIsChosenOverBase(displayFirst: Bool, source: AccelerometerFixture.LocationSource) async throws {
            var display = AccelerometerFixture()
            var base = AccelerometerFixture()
            display.deviceNumber = displayFirst ? 0 : 1
            base.deviceNumber = displayFirst ? 1 : 0
            base.parentPath = "/devices/platform/accel-base"
            display.parentPath = "/devices/platform/accel-lid"
            let names: (String, String) =
                switch source {
                case .udev: ("display", "base")
                case .label: ("accel-display", "accel-base")
                case .location: ("lid", "base")
                }
            display.locations = [source: names.0]
            base.locations = [source: names.1]
            let child = try await Self.sensors([base.description, display.description])
            #expect(child.exitStatus == .exited(0), "\(child.report)")
            let lines = child.outputText.split(separator: "\n")
            #expect(lines.contains { $0.hasPrefix("\(display.deviceName) accel_3d — used:") }, "\(child.report)")
            #expect(
                lines.contains { $0.hasPrefix("\(base.deviceName) accel_3d — used for the hinge angle: the base") },
                "\(child.report)"
            )
            #expect(Self.field(child.outputText, device: base.deviceName, "location")?.hasPrefix("base") == true)
        }

        /// A base accelerometer whose every mount matrix is broken would give a wrong hinge angle: it is not used,
        /// and the display one is used as ever.
        @Test func aBaseWithABrokenMatrixIsNotUsed() async throws {
            var (display, base) = AccelerometerFixture.convertiblePair()
            base.mountMatrices = [.udev: "1, 0, 0; 0, 1"]
            let child = try await Self.sensors([display.description, base.description])
            #expect(child.exitStatus == .exited(0), "\(child.report)")
            #expect(child.outputText.contains("iio:device0 accel_3d — used: the display accelerometer"))
            #expect(
                child.outputText.contains(
                    "iio:device1 accel_3d — not used: the base accelerometer iio:device1 is ignored: "
                        + "udev ACCEL_MOUNT_MATRIX '1, 0, 0; 0, 1' cannot be used"
                ),
                "\(child.report)"
            )
        }

        @Test func onlyABaseAccelerometerIsNeverUsed() async throws {
            var base = AccelerometerFixture()
            base.locations = [.udev: "base"]
            let child = try await Self.sensors([base.description])
            #expect(child.exitStatus == .exited(1))
            #expect(child.errorText.contains("only base accelerometers"), "\(child.report)")
        }

        @Test func aDeviceNamedOnTheCommandLineIsUsed() async throws {
            let (display, base) = AccelerometerFixture.convertiblePair()
            let child = try await Self.sensors([display.description, base.description], ["--device", "iio:device1"])
            #expect(child.exitStatus == .exited(0), "\(child.report)")
            #expect(child.outputText.contains("iio:device1 accel_3d — used: chosen by configuration"))
        }

        @Test func pollOnlyDevicesArePolled() async throws {
            var fixture = AccelerometerFixture()
            fixture.name = "mxc4005"
            fixture.capture = .pollOnly
            fixture.samplingFrequency = nil
            let child = try await Self.sensors([fixture.description])
            #expect(child.exitStatus == .exited(0), "\(child.report)")
            #expect(Self.field(child.outputText, device: "iio:device0", "mode")?.hasPrefix("poll") == true)
        }

        @Test func noAccelerometerIsAClearErrorWithExitStatus1() async throws {
            let child = try await Self.sensors([])
            #expect(child.exitStatus == .exited(1))
            #expect(child.outputText.isEmpty)
            #expect(child.errorText.contains("no accelerometer"), "\(child.report)")
            #expect(!child.errorText.contains("Fatal") && !child.errorText.contains("crashed"))
        }

        /// libiio takes an attribute's last character for the newline a kernel ends it with: a one-digit scan index
        /// written without one (as test rigs do) is empty to it, and it refuses every device. The error says so.
        @Test func aDeviceLibiioCannotParseIsExplained() async throws {
            let accelerometer = """
                P: /devices/platform/accel/iio:device0
                E: SUBSYSTEM=iio
                E: DEVTYPE=iio_device
                A: name=accel_3d\\n
                A: scan_elements/in_accel_x_en=0
                A: scan_elements/in_accel_x_index=0
                A: scan_elements/in_accel_x_type=le:s16/32>>0

                """
            let child = try await Self.sensors([accelerometer])
            #expect(child.exitStatus == .exited(1))
            #expect(
                child.errorText.contains("Invalid argument")
                    && child.errorText.contains("cannot parse some IIO device's attributes"),
                "\(child.report)"
            )
        }

        @Test func otherIIODevicesAreSkippedWithTheReason() async throws {
            let gyroscope = """
                P: /devices/platform/gyro/iio:device0
                E: SUBSYSTEM=iio
                E: DEVTYPE=iio_device
                A: name=gyro_3d\\n
                A: in_anglvel_x_raw=0\\n
                A: in_anglvel_y_raw=0\\n
                A: in_anglvel_z_raw=0\\n

                """
            let child = try await Self.sensors([gyroscope])
            #expect(child.exitStatus == .exited(1))
            #expect(
                child.outputText.contains("iio:device0 gyro_3d — skipped: no accel x/y/z channels"),
                "\(child.report)"
            )
            #expect(child.errorText.contains("no accelerometer found"))
        }
    }
}
