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

import OrientationCore
import Testing
import UdevSupport

@testable import SensorDevices

/// The accelerometers of the input subsystem: which evdev nodes are taken, their scale to m/s², and their axes
/// mapped to ORIENTATION.md's through udev's `ACCEL_MOUNT_MATRIX`.
@Suite struct InputAccelerometerTests {
    /// An evdev node as udev lists it.
    static func record(
        _ sysname: String = "event4",
        name: String = "ST LIS3LV02DL Accelerometer",
        properties: [String: String] = ["ID_INPUT": "1", "ID_INPUT_ACCELEROMETER": "1"]
    ) -> UdevDevice {
        UdevDevice(
            sysname: sysname,
            syspath: "/sys/devices/platform/lis3lv02d/input/input6/\(sysname)",
            devnode: "/dev/input/\(sysname)",
            properties: properties,
            parentAttributes: ["name": name]
        )
    }

    static func near(_ a: Vector3, _ b: Vector3) -> Bool {
        abs(a.x - b.x) < 1e-9 && abs(a.y - b.y) < 1e-9 && abs(a.z - b.z) < 1e-9
    }

    @Test(arguments: [
        ("ST LIS3LV02DL Accelerometer", Int32?.none, 1000.0, "lis3lv02d: milli-g"),
        ("ST LIS3LV02DL Accelerometer", 0, 1000, "lis3lv02d: milli-g"),
        ("lis3lv02d", nil, 1000, "lis3lv02d: milli-g"),
        ("ST LIS3LV02DL Accelerometer", 512, 512, "absinfo resolution"),
        ("Some Accelerometer", 64, 64, "absinfo resolution"),
        ("Some Accelerometer", nil, 256, "default: 256 per g"),
        ("Some Accelerometer", -3, 256, "default: 256 per g"),
    ])
    func scaleComesFromTheResolutionThenTheDriver(name: String, resolution: Int32?, perG: Double, source: String) {
        let scale = InputAccelerometerScale.choose(name: name, resolution: resolution)
        #expect(scale.countsPerG == perG)
        #expect(scale.source == source)
        #expect(abs(scale.perCount * perG - 9.80665) < 1e-12)
    }

    /// lis3lv02d's milli-g at rest, upright: ORIENTATION.md's normal pose, y ≈ −g, with the axes taken as they are.
    @Test func axesAreTakenAsTheyAreWithoutAMatrix() {
        let calibration = InputAccelerometerScale.choose(name: "lis3lv02d", resolution: nil)
            .calibration(matrix: .identity)
        #expect(Self.near(calibration.apply(x: 0, y: -1000, z: 0), Vector3(x: 0, y: -9.80665, z: 0)))
        #expect(Self.near(calibration.apply(x: 1000, y: 0, z: 0), Vector3(x: 9.80665, y: 0, z: 0)))
        #expect(Self.near(calibration.apply(x: 0, y: 0, z: 1000), Vector3(x: 0, y: 0, z: 9.80665)))
        #expect(calibration.offset == .zero)
    }

    /// hwdb's matrix from udev, applied as corrected = M · raw.
    @Test func udevMountMatrixIsApplied() throws {
        let record = Self.record(properties: [
            "ID_INPUT_ACCELEROMETER": "1", "ACCEL_MOUNT_MATRIX": "0, -1, 0; 1, 0, 0; 0, 0, -1",
        ])
        let found = try #require(InputAccelerometerDiscovery.describe(record, mountMatrix: nil))
        #expect(found.matrixSource == "udev ACCEL_MOUNT_MATRIX")
        #expect(found.inputNode == "/dev/input/event4")
        #expect(found.preferredMode == .evdev)
        #expect(found.name == "ST LIS3LV02DL Accelerometer")
        #expect(found.scaleSource == "lis3lv02d: milli-g")
        // x' = −y, y' = x, z' = −z.
        #expect(Self.near(found.calibration.apply(x: 0, y: -1000, z: 0), Vector3(x: 9.80665, y: 0, z: 0)))
        #expect(Self.near(found.calibration.apply(x: 1000, y: 0, z: 500), Vector3(x: 0, y: 9.80665, z: -4.903325)))
    }

    @Test func aConfiguredMatrixWinsAndABrokenOneIsTheIdentityWithAWarning() throws {
        let flipped = try MountMatrix(parsing: "-1, 0, 0; 0, -1, 0; 0, 0, 1")
        let configured = try #require(
            InputAccelerometerDiscovery.describe(
                Self.record(properties: ["ID_INPUT_ACCELEROMETER": "1", "ACCEL_MOUNT_MATRIX": "0,1,0;1,0,0;0,0,1"]),
                mountMatrix: flipped
            )
        )
        #expect(configured.calibration.matrix == flipped && configured.matrixSource == "configuration")
        let broken = try #require(
            InputAccelerometerDiscovery.describe(
                Self.record(properties: ["ID_INPUT_ACCELEROMETER": "1", "ACCEL_MOUNT_MATRIX": "1, 0; 0, 1"]),
                mountMatrix: nil
            )
        )
        #expect(broken.calibration.matrix == .identity && broken.matrixSource == "identity")
        #expect(broken.brokenMatrix != nil && broken.warnings.count == 1)
    }

    /// Only evdev nodes marked `ID_INPUT_ACCELEROMETER=1` are accelerometers; a game controller's is skipped.
    @Test func onlyMarkedEvdevNodesOfTheMachineAreTaken() {
        let records = [
            Self.record("event10", name: "Second"),
            Self.record("event2", name: "Keyboard", properties: ["ID_INPUT_KEYBOARD": "1"]),
            Self.record("input6", name: "Not a node"),
            Self.record(
                "event7",
                name: "Sony Motion Sensors",
                properties: ["ID_INPUT_ACCELEROMETER": "1", "ID_BUS": "usb"]
            ),
            Self.record(
                "event8",
                name: "Pad Motion",
                properties: ["ID_INPUT_ACCELEROMETER": "1", "ID_INPUT_JOYSTICK": "1"]
            ),
            Self.record("event3"),
        ]
        let discovery = InputAccelerometerDiscovery.discover(records, device: nil, mountMatrix: nil)
        #expect(discovery.accelerometers.map(\.id) == ["event3", "event10"])
        #expect(discovery.skipped.map(\.id) == ["event7", "event8"])
        #expect(discovery.chosen?.id == "event3")

        let configured = InputAccelerometerDiscovery.discover(records, device: "/dev/input/event10", mountMatrix: nil)
        #expect(configured.chosen?.id == "event10")
        let other = InputAccelerometerDiscovery.discover(records, device: "iio:device0", mountMatrix: nil)
        #expect(other.chosen == nil)
        #expect(other.reason.contains("iio:device0"))
    }

    @Test func aBaseInputAccelerometerNeverDrivesRotation() {
        let base = Self.record(properties: ["ID_INPUT_ACCELEROMETER": "1", "ACCEL_LOCATION": "base"])
        let discovery = InputAccelerometerDiscovery.discover([base], device: nil, mountMatrix: nil)
        #expect(discovery.accelerometers.first?.location == .base)
        #expect(discovery.chosen == nil)
    }

    @Test func aRemoteContextHasNoInputAccelerometers() {
        let discovery = InputAccelerometerDiscovery.discover(uri: "ip:192.0.2.1")
        #expect(discovery.accelerometers.isEmpty && discovery.chosen == nil)
    }
}
