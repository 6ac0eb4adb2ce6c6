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
import Glibc
import OrientdTestKit
import Testing

extension EmulatedDeviceTests {
    /// Convertibles whose base entry comes from systemd's `60-sensor.hwdb`, their matrices given as udev gives them:
    /// the hinge angle is the true one at laptop, flat, stand and tablet angles, and tablet mode follows it.
    @Suite struct DaemonSystemdBaseEntriesTests {
        /// One machine of systemd's hwdb: its two entries as udev properties, and what its sensors read.
        struct Machine: CustomStringConvertible, Sendable {
            var name: String
            var driver = "accel_3d"
            /// The display's and the base's `ACCEL_MOUNT_MATRIX`, as 60-sensor.hwdb writes them.
            var displayEntry: String
            var baseEntry: String
            /// How each sensor's raw axes turn into ORIENTATION.md's frame (the base's: systemd's, what the display
            /// reads with the lid closed): the entries themselves, except where the machine's sensors are known
            /// to read otherwise.
            var displayTruth: [[Int]]
            var baseTruth: [[Int]]
            /// Where the location comes from: udev `ACCEL_LOCATION` (the entries set it), or the sysfs label.
            var labels = false

            var description: String { name }

            init(_ name: String, display: String, base: String) {
                self.name = name
                displayEntry = display
                baseEntry = base
                displayTruth = Self.parse(display)
                baseTruth = Self.parse(base)
            }

            static func parse(_ text: String) -> [[Int]] {
                text.split(separator: ";").map { row in
                    row.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces))! }
                }
            }
        }

        /// Entries of systemd's 60-sensor.hwdb with a base accelerometer and a display entry for the same machine.
        static let machines: [Machine] = {
            var chromebook = Machine(
                "Chromebook (cros-ec-accel, accel-display and accel-base)",
                display: "-1, 0, 0; 0, -1, 0; 0, 0, -1",
                base: "-1, 0, 0; 0, 1, 0; 0, 0, 1"
            )
            chromebook.driver = "cros-ec-accel"
            chromebook.labels = true
            // The embedded controller reads Android's frame (the lid upright +y, on its back +z; the base flat +z).
            chromebook.displayTruth = [[-1, 0, 0], [0, -1, 0], [0, 0, 1]]
            chromebook.baseTruth = [[-1, 0, 0], [0, 1, 0], [0, 0, -1]]
            return [
                Machine(
                    "Trekstor Primebook C11B (KIOX010A)",
                    display: "-1, 0, 0; 0, -1, 0; 0, 0, -1",
                    base: "0, 1, 0; 1, 0, 0; 0, 0, 1"
                ),
                Machine(
                    "Lenovo Yoga 300-11IBR",
                    display: "0, -1, 0; -1, 0, 0; 0, 0, 1",
                    base: "1, 0, 0; 0, 1, 0; 0, 0, -1"
                ),
                Machine(
                    "Medion Akoya E (KIOX020A)",
                    display: "0, -1, 0; -1, 0, 0; 0, 0, 1",
                    base: "-1, 0, 0; 0, 1, 0; 0, 0, -1"
                ),
                Machine(
                    "Medion Akoya E2228T",
                    display: "0, -1, 0; -1, 0, 0; 0, 0, 1",
                    base: "-1, 0, 0; 0, -1, 0; 0, 0, -1"
                ),
                chromebook,
            ]
        }()

        /// The raw counts (1 g = 1000) a sensor reads for `reading` (in g, in its calibrated frame): the truth's
        /// inverse, its transpose, since it is a signed permutation.
        static func raw(_ truth: [[Int]], _ reading: (Double, Double, Double)) -> AxisValues<Int64> {
            let v = [reading.0, reading.1, reading.2]
            func axis(_ column: Int) -> Int64 {
                Int64((0..<3).map { Double(truth[$0][column]) * v[$0] * 1000 }.reduce(0, +).rounded())
            }
            return AxisValues(x: axis(0), y: axis(1), z: axis(2))
        }

        /// The two calibrated readings at hinge angle `degrees`: the base keyboard up on a table (systemd's frame:
        /// (0, 0, −1)), or keyboard down for a stand or a tablet; the display's is the base's turned about the hinge (x)
        /// by the angle.
        static func readings(
            at degrees: Double,
            keyboardDown: Bool
        ) -> (display: (Double, Double, Double), base: (Double, Double, Double)) {
            let base = (0.0, 0.0, keyboardDown ? 1.0 : -1.0)
            let phi = degrees * .pi / 180
            let display = (base.0, base.2 * sin(phi) + base.1 * cos(phi), base.2 * cos(phi) - base.1 * sin(phi))
            return (display, base)
        }

        @Test(arguments: machines)
        func theHingeAngleIsTheTrueOne(machine: Machine) async throws {
            let testbed = Testbed()
            var display = AccelerometerFixture()
            display.name = machine.driver
            display.parentPath = "/devices/platform/accel-lid"
            display.capture = .pollOnly
            display.trigger = .none
            display.mountMatrices = [.udev: machine.displayEntry]
            var base = display
            base.deviceNumber = 1
            base.parentPath = "/devices/platform/accel-base"
            base.mountMatrices = [.udev: machine.baseEntry]
            if machine.labels {
                display.locations = [.label: "accel-display"]
                base.locations = [.label: "accel-base"]
            } else {
                display.locations = [.udev: "display"]
                base.locations = [.udev: "base"]
            }
            func hold(_ degrees: Double, keyboardDown: Bool) throws {
                let (d, b) = Self.readings(at: degrees, keyboardDown: keyboardDown)
                for (fixture, reading) in [
                    (display, Self.raw(machine.displayTruth, d)), (base, Self.raw(machine.baseTruth, b)),
                ] {
                    try testbed.setAttribute(fixture.syspath, "in_accel_x_raw", String(reading.x))
                    try testbed.setAttribute(fixture.syspath, "in_accel_y_raw", String(reading.y))
                    try testbed.setAttribute(fixture.syspath, "in_accel_z_raw", String(reading.z))
                }
            }
            let laptop = Self.readings(at: 110, keyboardDown: false)
            display.raw = Self.raw(machine.displayTruth, laptop.display)
            base.raw = Self.raw(machine.baseTruth, laptop.base)
            try testbed.add(display.description)
            try testbed.add(base.description)
            let sandbox = try DaemonSandbox()
            let config = sandbox.directory + "/orientd.conf"
            try "[Policy]\nVirtualTabletSwitch=no\n".write(toFile: config, atomically: true, encoding: .utf8)
            let daemon = try await RunningDaemon(
                testbed: testbed,
                sandbox: sandbox,
                arguments: RunningDaemon.defaultArguments + ["--config", config]
            )
            defer { daemon.process.terminate() }
            let client = try daemon.connect()
            defer { client.close() }
            _ = try await client.call("begin")

            let poses: [(name: String, degrees: Double, keyboardDown: Bool, tablet: Bool)] = [
                ("laptop", 110, false, false), ("opened flat", 180, false, false), ("stand", 300, true, true),
                ("tablet", 335, true, true), ("laptop again", 110, false, false),
            ]
            for pose in poses {
                try hold(pose.degrees, keyboardDown: pose.keyboardDown)
                var state: DaemonJSON?
                let start = ContinuousClock.now
                // Each angle is awaited as the daemon reports it; 20 s is a bound for a stalled daemon, not a pace.
                while ContinuousClock.now < start + .seconds(20) {
                    state = try await client.call("get").state
                    if let hinge = state?["hinge"]?.double, abs(hinge - pose.degrees) <= 2,
                        state?["tablet_mode"]?.bool == pose.tablet
                    {
                        break
                    }
                    try await Task.sleep(for: .milliseconds(100))
                }
                let hinge = try #require(
                    state?["hinge"]?.double,
                    "\(machine) \(pose.name): \(String(describing: state))"
                )
                #expect(abs(hinge - pose.degrees) <= 12, "\(machine) \(pose.name) at \(pose.degrees)°: \(hinge)°")
                #expect(
                    state?["tablet_mode"]?.bool == pose.tablet,
                    "\(machine) \(pose.name): \(String(describing: state))"
                )
                #expect(state?["tablet_mode_source"]?.string == "hinge", "\(machine) \(pose.name)")
            }
            // Lying flat on its back, opened to 180°: the display reads face up.
            try hold(180, keyboardDown: false)
            var device: String?
            let start = ContinuousClock.now
            while ContinuousClock.now < start + .seconds(20), device != "face-up" {
                device = try await client.call("get").state?["device"]?.string
                if device != "face-up" { try await Task.sleep(for: .milliseconds(100)) }
            }
            #expect(device == "face-up", "\(machine): the display on its back")
            let status = try await client.call("status").result
            #expect(status?["base_sensor"]?["axes"]?.isNull ?? true, "\(machine): \(String(describing: status))")
        }
    }
}
