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

/// A machine's emulated accelerometers with their true mount matrices hidden from `orientd calibrate`: each pose the
/// command asks for is played as raw readings M⁻¹ · direction · g (Mᵀ for a signed permutation), with tremor.
struct CalibrationMachine {
    /// One accelerometer: its fixture, the parent device its driver sits on, its true matrix.
    struct Sensor {
        var fixture: AccelerometerFixture
        var parent: String
        var truth: [[Int]]
        /// Counts per g: 1 / (scale in g).
        var countsPerG: Double
        /// Whether scans are written to its buffer instead of its raw attributes.
        var buffered = false
        /// An accelerometer of the input subsystem instead of the IIO `fixture`: reports written to its node.
        var input: InputAccelerometerFixture? = nil
    }

    var name: String
    var display: Sensor
    var base: Sensor?
    /// The machine's DMI modalias (`/sys/class/dmi/id/modalias`).
    var dmi =
        "dmi:bvnAcme:bvr1.02:bd01/02/2024:br1.2:svnAcme:pnTab10:pvr1.0:rvnAcme:rnTab10:rvr1.0:cvnAcme:ct30:cvr1.0:"

    /// The testbed with the DMI device, the parents and the accelerometers.
    func add(to testbed: Testbed) throws {
        try addParents(to: testbed)
        for sensor in [display] + (base.map { [$0] } ?? []) {
            if let input = sensor.input {
                try input.add(to: testbed)
            } else {
                try testbed.add(sensor.fixture.description)
            }
        }
    }

    /// The DMI device and the accelerometers' parents, without the accelerometers (for a rig that adds them).
    func addParents(to testbed: Testbed) throws {
        try testbed.add("P: /devices/virtual/dmi/id\nE: SUBSYSTEM=dmi\nA: modalias=\(dmi)\\n\n")
        for sensor in [display] + (base.map { [$0] } ?? []) { try testbed.add(sensor.parent) }
    }

    /// The raw counts of `sensor` reading the calibrated `direction` (in g), with a tremor of `jitter` g.
    static func raw(_ sensor: Sensor, _ direction: [Double], jitter: Double) -> AxisValues<Int64> {
        // Mᵀ · d.
        var values: [Double] = [0, 0, 0]
        for column in 0..<3 {
            for row in 0..<3 { values[column] += Double(sensor.truth[row][column]) * direction[row] }
        }
        let counts = values.map { Int64((($0 + Double.random(in: -jitter...jitter)) * sensor.countsPerG).rounded()) }
        return AxisValues(x: counts[0], y: counts[1], z: counts[2])
    }

    /// The true matrix in hwdb's form.
    static func text(_ matrix: [[Int]]) -> String {
        matrix.map { $0.map(String.init).joined(separator: ", ") }.joined(separator: "; ")
    }
}

/// `orientd calibrate --json` driven as a person would: each step's pose held, its lines read.
final class CalibrationDriver {
    let child: ChildProcess
    let machine: CalibrationMachine
    let testbed: Testbed
    private var timestamp: Int64 = 1_000_000_000

    init(
        _ machine: CalibrationMachine,
        testbed: Testbed,
        arguments: [String],
        environment: [String: String] = [:]
    ) throws {
        self.machine = machine
        self.testbed = testbed
        child = try ChildProcess.orientd(
            ["calibrate", "--json"] + arguments,
            testbed: testbed,
            environment: environment
        )
    }

    /// The JSON objects printed so far.
    var lines: [[String: Any]] {
        child.outputLines.compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    /// The `step` lines that ask for a pose (those with `expect`).
    var asked: [[String: Any]] { lines.filter { $0["expect"] != nil } }

    /// Whether the command printed its last line (a result or an error).
    var ended: Bool { lines.contains { $0["result"] != nil || $0["error"] != nil } }

    /// Plays one reading of each sensor for the pose `expect` describes (a sensor the step does not use reads a
    /// leaning lid or base).
    func play(_ expect: [String: Any], jitter: Double = 0.01, override: [Double]? = nil) throws {
        let leaning: [String: [Double]] = ["display": [0, -0.6, 0.8], "base": [0, 0.5, 0.866]]
        for (name, sensor) in [("display", machine.display), ("base", machine.base)] {
            guard let sensor else { continue }
            let direction = override ?? (expect[name] as? [Double]) ?? leaning[name]!
            let raw = CalibrationMachine.raw(sensor, direction, jitter: jitter)
            if let input = sensor.input {
                try testbed.write(InputAccelerometerFixture.report(raw), to: input.deviceNode)
            } else if sensor.buffered {
                timestamp += 50_000_000
                try testbed.write(
                    sensor.fixture.encodeScan(
                        x: raw.x,
                        y: raw.y,
                        z: raw.z,
                        timestamp: sensor.fixture.timestamp == nil ? nil : timestamp
                    ),
                    to: sensor.fixture.deviceNode
                )
            } else {
                for axis in Axis.allCases {
                    try testbed.setAttribute(sensor.fixture.syspath, "in_accel_\(axis)_raw", "\(raw[axis])")
                }
            }
        }
    }

    /// Holds each pose asked for, until the command ends; `pose` may replace a step's directions (to play a wrong one).
    func follow(pose: (_ step: Int, _ attempt: Int) -> [Double]? = { _, _ in nil }) async throws {
        var handled = 0
        while await poll(
            timeout: .seconds(60),
            { self.asked.count > handled || self.ended || self.child.exitStatus != nil }
        ) {
            if ended || child.exitStatus != nil { return }
            let line = asked[handled]
            handled += 1
            let step = line["step"] as? Int ?? 0
            let attempt = asked.prefix(handled).filter { ($0["step"] as? Int) == step }.count
            let expect = line["expect"] as? [String: Any] ?? [:]
            // Turning it: a few readings far from any pose, then the pose held until the next line.
            for _ in 0..<3 {
                try play(expect, jitter: 0.6)
                try await Task.sleep(for: .milliseconds(60))
            }
            let before = lines.count
            let override = pose(step, attempt)
            while lines.count == before, child.exitStatus == nil {
                try play(expect, override: override)
                try await Task.sleep(for: .milliseconds(40))
            }
        }
        Issue.record("no further line from calibrate:\n\(child.report)")
    }

    /// The `result` object.
    var result: [String: Any]? { lines.last?["result"] as? [String: Any] }

    /// The whole last line (`result`, `hwdb`, `applied`, `file`).
    var resultLine: [String: Any]? { lines.last.flatMap { $0["result"] == nil ? nil : $0 } }
}

extension EmulatedDeviceTests {
    /// `orientd calibrate` on emulated accelerometers of real drivers, the true mount matrix hidden.
    @Suite struct OrientdCalibrateTests {
        /// hid-sensor-accel-3d: a platform device HID-SENSOR-200073, `in_accel_scale`, buffered.
        static func hidSensor(truth: [[Int]], buffered: Bool) -> CalibrationMachine {
            var fixture = AccelerometerFixture()
            fixture.name = "accel_3d"
            fixture.parentPath = "/devices/platform/HID-SENSOR-200073.3.auto"
            return CalibrationMachine(
                name: "hid-sensor-accel-3d",
                display: .init(
                    fixture: fixture,
                    parent: "P: /devices/platform/HID-SENSOR-200073.3.auto\nE: SUBSYSTEM=platform\n"
                        + "A: modalias=platform:HID-SENSOR-200073\\n\n",
                    truth: truth,
                    countsPerG: 1000,
                    buffered: buffered
                )
            )
        }

        /// bmc150 on I²C (ACPI BOSC0200), polled, with the driver's `in_mount_matrix`.
        static func bmc150(truth: [[Int]]) -> CalibrationMachine {
            var fixture = AccelerometerFixture()
            fixture.name = "bmc150_accel"
            fixture.capture = .pollOnly
            fixture.trigger = .none
            fixture.timestamp = nil
            fixture.scale = .shared("0.009582")
            fixture.mountMatrices = [.inMountMatrix: "0, 1, 0; 1, 0, 0; 0, 0, 1"]
            fixture.parentPath = "/devices/pci0000:00/0000:00:15.0/i2c_designware.0/i2c-0/i2c-BOSC0200:00"
            return CalibrationMachine(
                name: "bmc150",
                display: .init(
                    fixture: fixture,
                    parent: "P: /devices/pci0000:00/0000:00:15.0/i2c_designware.0/i2c-0/i2c-BOSC0200:00\n"
                        + "E: SUBSYSTEM=i2c\nA: modalias=acpi:BOSC0200:BOSC0200:\\n\nA: name=BOSC0200:00\\n\n",
                    truth: truth,
                    countsPerG: 9.80665 / 0.009582
                )
            )
        }

        /// A Chromebook convertible: cros-ec-accel with `label` in the lid and in the base, `scale`, no trigger;
        /// polled, or buffered (the EC's FIFO, with timestamps).
        static func crosEC(display: [[Int]], base: [[Int]], buffered: Bool = false) -> CalibrationMachine {
            func sensor(_ number: Int, label: String, truth: [[Int]]) -> CalibrationMachine.Sensor {
                var fixture = AccelerometerFixture()
                fixture.deviceNumber = number
                fixture.name = "cros-ec-accel"
                fixture.trigger = .none
                if !buffered {
                    fixture.capture = .pollOnly
                    fixture.timestamp = nil
                }
                fixture.scale = .device("0.000598")
                fixture.locations = [.label: label]
                let parent =
                    "/devices/pci0000:00/0000:00:1f.0/PNP0C09:00/GOOG0004:00/cros-ec-dev.1.auto/"
                    + "cros-ec-sensorhub.2.auto/cros-ec-accel.\(number)"
                fixture.parentPath = parent
                return .init(
                    fixture: fixture,
                    parent: "P: \(parent)\nE: SUBSYSTEM=platform\nA: modalias=platform:cros-ec-accel\\n\n",
                    truth: truth,
                    countsPerG: 9.80665 / 0.000598,
                    buffered: buffered
                )
            }
            var machine = CalibrationMachine(
                name: "cros-ec",
                display: sensor(0, label: "accel-display", truth: display),
                base: sensor(1, label: "accel-base", truth: base)
            )
            machine.dmi =
                "dmi:bvncoreboot:bvrGoogle_Eve.9584.230.0:bd01/01/2019:br4.0:svnGoogle:pnEve:pvr1.0:rvnGoogle:rnEve:rvr1.0:cvnGoogle:ct9:cvr:"
            return machine
        }

        /// An I²C accelerometer on an ACPI id: kxcjk-1013 (KIOX000A, `in_accel_mount_matrix`), mxc4005 (no
        /// sampling frequency), st_accel (per-axis scales, `mount_matrix`, a `-trigger`), buffered.
        static func i2c(
            driver: String,
            acpi: String,
            truth: [[Int]],
            configure: (inout AccelerometerFixture) -> Void
        ) -> CalibrationMachine {
            var fixture = AccelerometerFixture()
            fixture.name = driver
            let parent = "/devices/pci0000:00/0000:00:15.1/i2c_designware.1/i2c-1/i2c-\(acpi):00"
            fixture.parentPath = parent
            configure(&fixture)
            let countsPerG: Double =
                switch fixture.scale {
                case .shared(let text), .device(let text): 9.80665 / Double(text)!
                case .perAxis(let values): 9.80665 / Double(values.x)!
                case .none: 1
                }
            return CalibrationMachine(
                name: driver,
                display: .init(
                    fixture: fixture,
                    parent: "P: \(parent)\nE: SUBSYSTEM=i2c\nA: modalias=acpi:\(acpi):\(acpi):\\n\n",
                    truth: truth,
                    countsPerG: countsPerG,
                    buffered: true
                )
            )
        }

        /// lis3lv02d: an accelerometer of the input subsystem (milli-g), on a platform device.
        static func lis3lv02d(truth: [[Int]]) -> CalibrationMachine {
            let input = InputAccelerometerFixture()
            return CalibrationMachine(
                name: "lis3lv02d",
                display: .init(
                    fixture: AccelerometerFixture(),
                    parent:
                        "P: /devices/platform/lis3lv02d\nE: SUBSYSTEM=platform\nA: modalias=platform:lis3lv02d\\n\n",
                    truth: truth,
                    countsPerG: 1000,
                    input: input
                )
            )
        }

        static var drivers: [CalibrationMachine] {
            [
                i2c(driver: "kxcjk1013", acpi: "KIOX000A", truth: [[0, 1, 0], [-1, 0, 0], [0, 0, 1]]) {
                    $0.mountMatrices = [.accelMountMatrix: "1, 0, 0; 0, 1, 0; 0, 0, 1"]
                    $0.scale = .shared("0.009582")
                    $0.trigger = .named("kxcjk1013-dev0")
                },
                i2c(driver: "mxc4005", acpi: "MXC4005", truth: [[-1, 0, 0], [0, 1, 0], [0, 0, -1]]) {
                    $0.samplingFrequency = nil
                    $0.scale = .shared("0.019154")
                    $0.trigger = .named("mxc4005-dev0")
                },
                i2c(driver: "lis3dh_accel", acpi: "SMO8840", truth: [[0, -1, 0], [-1, 0, 0], [0, 0, -1]]) {
                    $0.scale = .perAxis(AxisValues(x: "0.000598", y: "0.000598", z: "0.000598"))
                    $0.trigger = .nameSuffixed
                    $0.mountMatrices = [.mountMatrix: "0, 1, 0; 1, 0, 0; 0, 0, 1"]
                    $0.samplingFrequency = "1"
                    $0.samplingFrequencyAvailable = "1 10 25 50 100"
                },
                lis3lv02d(truth: [[0, 1, 0], [1, 0, 0], [0, 0, -1]]),
            ]
        }

        /// Other drivers' layouts: the matrix found is the hidden one; the key 60-sensor.rules builds is the entry's.
        @Test(arguments: drivers.indices)
        func otherDriversGiveTheirHiddenMatrices(index: Int) async throws {
            let machine = Self.drivers[index]
            let (driver, _) = try await Self.calibrate(machine, ["--apply", "no"])
            #expect(driver.child.exitStatus == .exited(0), "\(machine.name): \(driver.child.report)")
            let display = try #require(driver.result?["display"] as? [String: Any], "\(driver.child.report)")
            #expect(
                display["matrix"] as? String == CalibrationMachine.text(machine.display.truth),
                "\(machine.name): \(driver.child.report)"
            )
            let hwdb = try #require(driver.resultLine?["hwdb"] as? String)
            let modalias =
                machine.display.input != nil
                ? "platform:lis3lv02d*"
                : "acpi:\(machine.name == "kxcjk1013" ? "KIOX000A" : machine.name == "mxc4005" ? "MXC4005" : "SMO8840")*"
            #expect(hwdb.contains("sensor:modalias:\(modalias):dmi:*:svnAcme:pnTab10:*\n"), "\(hwdb)")
        }

        /// Runs a whole calibration; returns the driver once the command ended.
        static func calibrate(
            _ machine: CalibrationMachine,
            _ arguments: [String]
        ) async throws -> (
            CalibrationDriver, Testbed
        ) {
            let testbed = Testbed()
            try machine.add(to: testbed)
            let driver = try CalibrationDriver(machine, testbed: testbed, arguments: arguments)
            for sensor in [machine.display] + (machine.base.map { [$0] } ?? [])
            where sensor.buffered && sensor.input == nil {
                #expect(
                    await driver.child.waitUntil("the buffer is enabled") {
                        (try? testbed.attribute(sensor.fixture.syspath, "buffer/enable")) == "1"
                    }
                )
            }
            try await driver.follow()
            await driver.child.wait()
            return (driver, testbed)
        }

        static let rotated = [[0, -1, 0], [1, 0, 0], [0, 0, 1]]
        static let reflected = [[0, 1, 0], [1, 0, 0], [0, 0, 1]]  // Chuwi Hi10 X
        static let upsideDown = [[-1, 0, 0], [0, -1, 0], [0, 0, -1]]

        @Test(arguments: [
            (rotated, true), (reflected, false), (upsideDown, true), ([[0, -1, 0], [0, 0, -1], [1, 0, 0]], false),
        ])
        func aHidSensorGivesItsHiddenMatrix(truth: [[Int]], buffered: Bool) async throws {
            let machine = Self.hidSensor(truth: truth, buffered: buffered)
            let (driver, _) = try await Self.calibrate(machine, ["--apply", "no"] + (buffered ? [] : ["--poll"]))
            #expect(driver.child.exitStatus == .exited(0), "\(driver.child.report)")
            let result = try #require(driver.result, "\(driver.child.report)")
            let line = try #require(driver.resultLine)
            let display = try #require(result["display"] as? [String: Any])
            #expect(display["matrix"] as? String == CalibrationMachine.text(truth), "\(driver.child.report)")
            #expect(display["was_source"] as? String == "identity")
            #expect(result["base"] is NSNull)
            #expect(line["applied"] as? String == "no")
            #expect(line["file"] is NSNull)
            // Three steps asked, each held once; the held readings are raw (before any matrix), in m/s².
            #expect(driver.asked.count == 3)
            let firstStep = try #require(driver.asked.first)
            #expect(firstStep["step"] as? Int == 1 && firstStep["of"] as? Int == 3)
            let expect = try #require(firstStep["expect"] as? [String: Any])
            #expect(expect["display"] as? [Double] == [0, 0, 1], "\(firstStep)")
            #expect(expect["base"] is NSNull, "CLI.md: base is null on a machine without one: \(firstStep)")
            #expect(firstStep["say"] as? String == "Lay it flat on a table, screen up")
            let held = driver.lines.filter { $0["held"] != nil }
            #expect(held.count == 3)
            let first = try #require((held.first?["held"] as? [String: Any])?["display"] as? [Double])
            #expect(abs(first.map { $0 * $0 }.reduce(0, +).squareRoot() - 9.80665) < 0.5, "\(first)")
            let hwdb = try #require(line["hwdb"] as? String)
            #expect(hwdb.contains("sensor:modalias:platform:HID-SENSOR-200073*:dmi:*:svnAcme:pnTab10:*\n"), "\(hwdb)")
            #expect(hwdb.contains(" ACCEL_MOUNT_MATRIX=\(CalibrationMachine.text(truth))\n"), "\(hwdb)")
        }

        /// The entry is written under --hwdb-root, compiled by the real systemd-hwdb, and the key 60-sensor.rules
        /// builds for the device gives the matrix; the file's other entries stay.
        @Test func theHwdbEntryIsCompiledAndFoundByTheKeyUdevBuilds() async throws {
            let truth = [[0, -1, 0], [-1, 0, 0], [0, 0, -1]]
            let machine = Self.bmc150(truth: truth)
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-hwdb-\(UUID())").path
            defer { try? FileManager.default.removeItem(atPath: root) }
            let folder = root + "/etc/udev/hwdb.d"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let other =
                "# Another tablet\nsensor:modalias:acpi:KIOX000A*:dmi:*:svnOther:pnSlate:*\n ACCEL_MOUNT_MATRIX=-1, 0, 0; 0, 1, 0; 0, 0, 1\n"
            // A stale entry for this machine, replaced.
            let stale =
                "sensor:modalias:acpi:BOSC0200*:dmi:*:svnAcme:pnTab10:*\n ACCEL_MOUNT_MATRIX=1, 0, 0; 0, 1, 0; 0, 0, 1\n"
            try (other + "\n" + stale).write(
                toFile: folder + "/61-sensor-local.hwdb",
                atomically: true,
                encoding: .utf8
            )

            let (driver, _) = try await Self.calibrate(machine, ["--hwdb-root", root])
            #expect(driver.child.exitStatus == .exited(0), "\(driver.child.report)")
            let result = try #require(driver.result, "\(driver.child.report)")
            let line = try #require(driver.resultLine)
            #expect(line["applied"] as? String == "hwdb")
            #expect(line["file"] as? String == folder + "/61-sensor-local.hwdb")
            #expect(line["verified"] as? Bool == true, "\(driver.child.report)")
            let display = try #require(result["display"] as? [String: Any])
            #expect(display["matrix"] as? String == CalibrationMachine.text(truth))
            #expect(display["was"] as? String == "0, 1, 0; 1, 0, 0; 0, 0, 1")
            #expect(display["was_source"] as? String == "sysfs")

            let written = try String(contentsOfFile: folder + "/61-sensor-local.hwdb", encoding: .utf8)
            #expect(written.contains(other), "\(written)")
            #expect(!written.contains("ACCEL_MOUNT_MATRIX=1, 0, 0; 0, 1, 0; 0, 0, 1"), "\(written)")
            // The key of 60-sensor.rules' rule for an IIO device without a label: the I²C parent's modalias, DMI.
            let key = "sensor:modalias:acpi:BOSC0200:BOSC0200::\(machine.dmi)"
            let query = ProgramRun.run(["systemd-hwdb", "query", "--root", root, key])
            #expect(query.output.contains("ACCEL_MOUNT_MATRIX=\(CalibrationMachine.text(truth))"), "\(query.output)")
            let otherQuery = ProgramRun.run(
                [
                    "systemd-hwdb", "query", "--root", root,
                    "sensor:modalias:acpi:KIOX000A:KIOX000A::dmi:bvnX:svnOther:pnSlate:pvr1:",
                ]
            )
            #expect(otherQuery.output.contains("ACCEL_MOUNT_MATRIX=-1, 0, 0; 0, 1, 0; 0, 0, 1"), "\(otherQuery.output)")
        }

        /// `--apply config`: MountMatrix= in a drop-in of orientd's configuration (under the root), read back as the
        /// effective configuration; no hwdb file.
        @Test func applyConfigWritesADropIn() async throws {
            let truth = [[0, 1, 0], [1, 0, 0], [0, 0, -1]]
            let machine = Self.hidSensor(truth: truth, buffered: false)
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-config-\(UUID())").path
            defer { try? FileManager.default.removeItem(atPath: root) }
            let (driver, _) = try await Self.calibrate(machine, ["--poll", "--apply", "config", "--hwdb-root", root])
            #expect(driver.child.exitStatus == .exited(0), "\(driver.child.report)")
            let line = try #require(driver.resultLine, "\(driver.child.report)")
            let file = root + "/etc/orientd/orientd.conf.d/60-calibration.conf"
            #expect(line["applied"] as? String == "config")
            #expect(line["file"] as? String == file)
            #expect(line["verified"] as? Bool == true)
            let text = try String(contentsOfFile: file, encoding: .utf8)
            #expect(text.contains("[Sensor]\nMountMatrix=0, 1, 0; 1, 0, 0; 0, 0, -1\n"), "\(text)")
            #expect(!FileManager.default.fileExists(atPath: root + "/etc/udev"), "no hwdb file")
        }

        /// A Chromebook convertible: both accelerometers, polled or buffered, each with its label in the key.
        @Test(arguments: [false, true])
        func aConvertibleGivesBothHiddenMatrices(buffered: Bool) async throws {
            // What a Chromebook's embedded controller reads (Android's frame: the lid upright +y, on its back +z; the
            // base flat +z), turned into orientd's (the lid upright −y, on its back +z; the base flat −z, systemd's
            // base frame): a half turn about z for the display, about y for the base.
            let displayTruth = [[-1, 0, 0], [0, -1, 0], [0, 0, 1]]
            let baseTruth = [[-1, 0, 0], [0, 1, 0], [0, 0, -1]]
            let machine = Self.crosEC(display: displayTruth, base: baseTruth, buffered: buffered)
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-hwdb-\(UUID())").path
            defer { try? FileManager.default.removeItem(atPath: root) }
            let (driver, _) = try await Self.calibrate(machine, ["--hwdb-root", root])
            #expect(driver.child.exitStatus == .exited(0), "\(driver.child.report)")
            #expect(driver.asked.count == 5)
            let result = try #require(driver.result, "\(driver.child.report)")
            let display = try #require(result["display"] as? [String: Any])
            let base = try #require(result["base"] as? [String: Any])
            #expect(display["matrix"] as? String == CalibrationMachine.text(displayTruth))
            #expect(base["matrix"] as? String == CalibrationMachine.text(baseTruth))
            // The entries written are systemd's own for every Chromebook (60-sensor.hwdb, with HID's sign of z).
            let hwdb = try String(contentsOfFile: root + "/etc/udev/hwdb.d/61-sensor-local.hwdb", encoding: .utf8)
            #expect(hwdb.contains("cros-ec-accel, base accelerometer, systemd's frame)\n"), "\(hwdb)")
            for (label, systemd) in [
                ("accel-display", "-1, 0, 0; 0, -1, 0; 0, 0, -1"), ("accel-base", "-1, 0, 0; 0, 1, 0; 0, 0, 1"),
            ] {
                let key = "sensor:\(label):modalias:platform:cros-ec-accel:\(machine.dmi)"
                let query = ProgramRun.run(["systemd-hwdb", "query", "--root", root, key])
                #expect(query.output.contains("ACCEL_MOUNT_MATRIX=\(systemd)\n"), "\(query.output)")
            }
        }

        /// Upside down instead of upright: the same raw axis as lying flat; refused, asked again, then right.
        @Test func aPoseAlongAnAxisAlreadyReadIsRefusedAndAskedAgain() async throws {
            let machine = Self.hidSensor(truth: Self.rotated, buffered: false)
            let testbed = Testbed()
            try machine.add(to: testbed)
            let driver = try CalibrationDriver(machine, testbed: testbed, arguments: ["--apply", "no", "--poll"])
            try await driver.follow { step, attempt in step == 2 && attempt == 1 ? [0, 0, -1] : nil }
            await driver.child.wait()
            #expect(driver.child.exitStatus == .exited(0), "\(driver.child.report)")
            let refused = driver.lines.filter { $0["refused"] != nil }
            #expect(refused.count == 1, "\(driver.child.report)")
            #expect(refused.first?["refused"] as? Int == 2)
            #expect((refused.first?["why"] as? String)?.contains("same axis as in step 1") == true)
            #expect(driver.asked.map { $0["step"] as? Int } == [1, 2, 2, 3])
            let display = try #require(driver.result?["display"] as? [String: Any])
            #expect(display["matrix"] as? String == CalibrationMachine.text(Self.rotated))
        }

        /// A machine that never holds still: an error when the step's time is up, and nothing written.
        @Test func aPoseNeverHeldEndsWithAnErrorAndNothingWritten() async throws {
            let machine = Self.hidSensor(truth: Self.rotated, buffered: false)
            let testbed = Testbed()
            try machine.add(to: testbed)
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-hwdb-\(UUID())").path
            defer { try? FileManager.default.removeItem(atPath: root) }
            let driver = try CalibrationDriver(
                machine,
                testbed: testbed,
                arguments: ["--hwdb-root", root, "--poll", "--step-timeout", "2"]
            )
            #expect(await driver.child.waitUntil("the first step") { !driver.asked.isEmpty })
            while driver.child.exitStatus == nil {
                try driver.play(["display": [0, 0, 1]], jitter: 0.7)
                try await Task.sleep(for: .milliseconds(40))
            }
            #expect(driver.child.exitStatus == .exited(1), "\(driver.child.report)")
            let error = try #require(driver.lines.last?["error"] as? String, "\(driver.child.report)")
            #expect(error.contains("step 1 was not held still"), "\(error)")
            #expect(!FileManager.default.fileExists(atPath: root), "nothing written")
        }

        /// `orientd sensors` says when a matrix cannot be right: the duplicated axis of a hand-written hwdb entry (the
        /// Bush tablet's in 60-sensor.hwdb), a row of zeros; nothing for a right one.
        @Test(arguments: [
            ("1, 0, 0; 0, -1, 0; 1, 0, 0", "reads the same raw axis in rows 1 and 3"),
            ("0, 1, 0; 0, 0, 0; 0, 0, 1", "all zeros"),
            ("0, 1, 0; 1, 0, 0; 0, 0, 1", nil),
        ])
        func sensorsSaysWhenTheAxesCannotBeRight(matrix: String, problem: String?) async throws {
            var fixture = AccelerometerFixture()
            fixture.mountMatrices = [.udev: matrix]
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let child = try ChildProcess.orientd(["sensors"], testbed: testbed)
            await child.wait()
            #expect(child.exitStatus == .exited(0), "\(child.report)")
            let axes = OrientdSensorsTests.field(child.outputText, device: "iio:device0", "axes")
            if let problem {
                #expect(axes?.contains(problem) == true, "\(child.outputText)")
                #expect(axes?.contains("run 'orientd calibrate'") == true, "\(child.outputText)")
            } else {
                #expect(axes == nil, "\(child.outputText)")
            }
        }

        /// The accelerometer removed during the calibration: an error at once, nothing written.
        @Test func anAccelerometerThatGoesEndsItAtOnce() async throws {
            let machine = Self.hidSensor(truth: Self.rotated, buffered: false)
            let testbed = Testbed()
            try machine.add(to: testbed)
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-hwdb-\(UUID())").path
            defer { try? FileManager.default.removeItem(atPath: root) }
            let driver = try CalibrationDriver(machine, testbed: testbed, arguments: ["--hwdb-root", root, "--poll"])
            #expect(await driver.child.waitUntil("the first step") { !driver.asked.isEmpty })
            try testbed.removeDevice(machine.display.fixture.syspath, announce: true)
            #expect(await driver.child.wait() == .exited(1), "\(driver.child.report)")
            let error = try #require(driver.lines.last?["error"] as? String, "\(driver.child.report)")
            #expect(error.contains("went away"), "\(error)")
            #expect(!FileManager.default.fileExists(atPath: root), "nothing written")
        }

        /// `--device` naming a convertible's base accelerometer: refused, since its poses are the display's.
        @Test func theBaseAloneIsRefused() async throws {
            let machine = Self.crosEC(display: Self.rotated, base: Self.rotated)
            let testbed = Testbed()
            try machine.add(to: testbed)
            let child = try ChildProcess.orientd(
                ["calibrate", "--json", "--apply", "no", "--device", "iio:device1"],
                testbed: testbed
            )
            #expect(await child.wait() == .exited(1), "\(child.report)")
            let line = try #require(child.outputLines.last)
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect((object?["error"] as? String)?.contains("base accelerometer") == true, "\(child.report)")
        }

        @Test func withoutAnAccelerometerItSaysSo() async throws {
            let child = try ChildProcess.orientd(["calibrate", "--json", "--apply", "no"], testbed: Testbed())
            #expect(await child.wait() == .exited(1))
            let line = try #require(child.outputLines.last)
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect((object?["error"] as? String)?.contains("no accelerometer") == true, "\(child.report)")
        }
    }
}
