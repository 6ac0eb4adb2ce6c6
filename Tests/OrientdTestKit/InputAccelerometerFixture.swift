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

/// An emulated accelerometer of the input subsystem, modelled on lis3lv02d (the ST accelerometer of HP laptops): an
/// input device with `EV_ABS` `ABS_X`, `ABS_Y`, `ABS_Z` (±2304, reported in milli-g, no resolution) and
/// `INPUT_PROP_ACCELEROMETER`, whose evdev node udev marks `ID_INPUT_ACCELEROMETER=1`, optionally with hwdb's
/// `ACCEL_MOUNT_MATRIX`; rendered as umockdev description text plus the ioctl record libevdev reads it through.
///
/// The evdev node is a PTY (``EmulatedEvdevNode``): the test writes `struct input_event`s to its master and
/// the daemon reads them as the kernel's events. Nothing is written to it before the daemon opens the node, so the
/// PTY's buffer never holds events from before an open.
package struct InputAccelerometerFixture {
    /// The input device's number (`input6`).
    package var inputNumber = 6
    /// The evdev node's number (`event4`).
    package var eventNumber = 4
    /// The input device's name, as lis3lv02d names it.
    package var name = "ST LIS3LV02DL Accelerometer"
    /// The range of each axis: ±this.
    package var range: Int32 = 2304
    /// The axes' resolution (counts per g); lis3lv02d leaves it 0.
    package var resolution: Int32 = 0
    /// The axes' values when the daemon opens the node (the kernel's EVIOCGABS answer).
    package var initial = AxisValues<Int32>(x: 0, y: 0, z: 0)
    /// hwdb's `ACCEL_MOUNT_MATRIX` on the evdev node, if any.
    package var mountMatrix: String?
    /// Whether udev marks the evdev node with iio-sensor-proxy's `IIO_SENSOR_PROXY_TYPE=input-accel` instead of
    /// `ID_INPUT_ACCELEROMETER=1` (a local rule's mark).
    package var markedBySensorProxyTypeOnly = false
    /// The sysfs folder of the input device's parent.
    package var parentPath = "/sys/devices/platform/lis3lv02d"
    /// Whether the node answers only the axes' `EVIOCGABS`, not libevdev's queries of the device, as in a recording of
    /// a program that asks for nothing else (iio-sensor-proxy's test of its input accelerometer driver).
    package var answersAxesOnly = false

    package init(
        mountMatrix: String? = nil,
        resolution: Int32 = 0,
        initial: AxisValues<Int32> = .init(x: 0, y: 0, z: 0)
    ) {
        self.mountMatrix = mountMatrix
        self.resolution = resolution
        self.initial = initial
    }

    /// The input device's sysfs path.
    package var inputSyspath: String { parentPath + "/input/input\(inputNumber)" }
    /// The evdev node's sysfs path.
    package var syspath: String { inputSyspath + "/event\(eventNumber)" }
    /// The device node.
    package var deviceNode: String { "/dev/input/event\(eventNumber)" }
    /// udev's name of the evdev node.
    package var sysname: String { "event\(eventNumber)" }

    /// The umockdev description: the input device with its capabilities (EV_SYN, EV_ABS; ABS_X, ABS_Y, ABS_Z) and its
    /// evdev node, both marked by udev's input_id as an accelerometer.
    package var description: String {
        """
        P: \(inputSyspath.dropFirst(4))
        E: SUBSYSTEM=input
        E: ID_INPUT=1
        E: ID_INPUT_ACCELEROMETER=1
        A: name=\(name)\\n
        A: capabilities/ev=9\\n
        A: capabilities/abs=7\\n
        A: properties=40\\n

        P: \(syspath.dropFirst(4))
        N: input/event\(eventNumber)
        E: DEVNAME=\(deviceNode)
        E: SUBSYSTEM=input
        E: ID_INPUT=1
        E: \(markedBySensorProxyTypeOnly ? "IIO_SENSOR_PROXY_TYPE=input-accel" : "ID_INPUT_ACCELEROMETER=1")\(mountMatrix.map { "\nE: ACCEL_MOUNT_MATRIX=\($0)" } ?? "")
        A: dev=13:\(64 + eventNumber)\\n

        """
    }

    /// The ioctl record: version, id, name, the event-type bitmaps (EV_SYN and EV_ABS; ABS_X, ABS_Y, ABS_Z), the
    /// property `INPUT_PROP_ACCELEROMETER`, no keys, LEDs or switches held, and each axis's `input_absinfo`.
    package var ioctlRecord: String {
        // struct input_absinfo of each axis: value, minimum, maximum, fuzz, flat, resolution.
        let absInfo = [initial.x, initial.y, initial.z].map { [$0, -range, range, 18, 18, resolution] }
        if answersAxesOnly { return EmulatedEvdevNode.axesRecord(absInfo) }
        return EmulatedEvdevNode.ioctlRecord(
            name: name,
            eventTypes: 0x09,
            axes: 0x07,
            properties: 0x40,
            absInfo: absInfo
        )
    }

    /// Adds the accelerometer to `testbed` with its ioctl record; `announce` sends the `add` uevents of hotplug after
    /// the record is in place.
    package func add(to testbed: Testbed, announce: Bool = false) throws {
        try EmulatedEvdevNode.add(
            description,
            deviceNode: deviceNode,
            ioctlRecord: ioctlRecord,
            to: testbed,
            announce: announce
        )
    }

    /// The raw reading (milli-g, before the mount matrix) for a corrected one (1 g = 1000), when the matrix is a
    /// signed permutation (its own inverse is its transpose); the identity without a matrix.
    package func raw(for corrected: AxisValues<Int64>) -> AxisValues<Int64> {
        guard let mountMatrix else { return corrected }
        let rows = mountMatrix.split(separator: ";").map {
            $0.split(separator: ",").map { Int64(Double($0.trimmingCharacters(in: .whitespaces)) ?? 0) }
        }
        let c = [corrected.x, corrected.y, corrected.z]
        // raw = Mᵀ · corrected.
        let value = { (column: Int) in (0..<3).reduce(Int64(0)) { $0 + rows[$1][column] * c[$1] } }
        return AxisValues(x: value(0), y: value(1), z: value(2))
    }

    /// One report of the three axes as the kernel sends it: `EV_ABS` `ABS_X`, `ABS_Y`, `ABS_Z`, then `SYN_REPORT`.
    package static func report(_ raw: AxisValues<Int64>) -> [UInt8] {
        let event = EmulatedEvdevNode.inputEvent
        return event(0x03, 0x00, Int32(raw.x)) + event(0x03, 0x01, Int32(raw.y)) + event(0x03, 0x02, Int32(raw.z))
            + event(0, 0, 0)
    }

    /// Holds `posture` for `seconds`: a report every 20 ms, written as the time passes (the daemon times a reading
    /// when it reads it when the kernel's clock cannot be chosen), each with a jitter of a few milli-g, as a real
    /// sensor's noise (the kernel sends only the axes that changed, and nothing when none did).
    package func hold(_ posture: Posture, seconds: Double = 1, on testbed: Testbed) async throws {
        let raw = raw(for: posture.reading)
        let count = Int(seconds * 50)
        for index in 0..<count {
            let jitter = Int64(index % 2 == 0 ? 3 : -3)
            try testbed.write(
                Self.report(AxisValues(x: raw.x + jitter, y: raw.y - jitter, z: raw.z + jitter)),
                to: deviceNode
            )
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
