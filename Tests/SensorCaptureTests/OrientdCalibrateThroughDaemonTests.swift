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
    /// `orientd calibrate` while the daemon reads the buffer for a client, on a driver that refuses raw readings
    /// meanwhile (bmc150: the kernel's `iio_device_claim_direct_mode` answers `EBUSY`): the readings come through the
    /// daemon's `status`, and the result is the hidden matrix.
    ///
    /// The test bed plays the driver: its raw attribute files are taken away while the buffer is enabled, so that
    /// calibrate cannot read them. The buffer's character device is a PTY under umockdev, which a second reader could
    /// open (the kernel's answers `EBUSY`); `--poll` keeps calibrate from it, as the kernel would.
    @Suite struct OrientdCalibrateThroughDaemonTests {
        /// bmc150 on I²C (ACPI BOSC0200) with `in_mount_matrix`, buffered through its data-ready trigger.
        static func bufferedBMC150(truth: [[Int]]) -> CalibrationMachine {
            var machine = OrientdCalibrateTests.bmc150(truth: truth)
            machine.display.fixture.capture = AccelerometerFixture().capture
            machine.display.fixture.trigger = .deviceNumbered
            machine.display.fixture.timestamp = AccelerometerFixture().timestamp
            machine.display.buffered = true
            return machine
        }

        /// Takes away the raw attributes of `fixture`, as a driver refusing them while its buffer runs.
        static func refuseRawReadings(_ fixture: AccelerometerFixture, in testbed: Testbed) throws {
            for axis in ["x", "y", "z"] {
                try FileManager.default.removeItem(
                    atPath: testbed.rootDirectory + fixture.syspath + "/in_accel_\(axis)_raw"
                )
            }
        }

        static func scratchRoot() -> String {
            FileManager.default.temporaryDirectory.appendingPathComponent("orientd-hwdb-\(UUID())").path
        }

        /// `orientd calibrate --poll --hwdb-root root` with the daemon at `socket`, every pose played, to its end.
        static func calibrate(
            _ machine: CalibrationMachine,
            testbed: Testbed,
            root: String,
            socket: String
        ) async throws -> CalibrationDriver {
            let driver = try CalibrationDriver(
                machine,
                testbed: testbed,
                arguments: ["--poll", "--hwdb-root", root],
                environment: ["ORIENTD_SOCKET": socket]
            )
            try await driver.follow()
            await driver.child.wait()
            return driver
        }

        @Test func theReadingsComeThroughTheDaemonWhileAClientGenerates() async throws {
            let truth = [[0, -1, 0], [-1, 0, 0], [0, 0, -1]]
            let machine = Self.bufferedBMC150(truth: truth)
            let testbed = Testbed()
            try machine.addParents(to: testbed)
            let rig = try await GeneratingDaemon(fixture: machine.display.fixture, testbed: testbed)
            try Self.refuseRawReadings(machine.display.fixture, in: testbed)
            let root = Self.scratchRoot()
            defer { try? FileManager.default.removeItem(atPath: root) }

            let driver = try await Self.calibrate(machine, testbed: testbed, root: root, socket: rig.sandbox.socketPath)
            #expect(driver.child.exitStatus == .exited(0), "\(driver.child.report)\n\(rig.daemon.process.report)")
            #expect(driver.child.errorText.contains("come through the daemon"), "\(driver.child.errorText)")
            let display = try #require(driver.result?["display"] as? [String: Any], "\(driver.child.report)")
            #expect(display["matrix"] as? String == CalibrationMachine.text(truth), "\(driver.child.report)")
            #expect(display["was"] as? String == "0, 1, 0; 1, 0, 0; 0, 0, 1")
            // The held readings are raw (before the daemon's matrix), in m/s².
            let held = driver.lines.compactMap { ($0["held"] as? [String: Any])?["display"] as? [Double] }
            #expect(held.count == 3)
            let first = try #require(held.first)
            #expect(abs(first[2] + 9.80665) < 0.6, "flat, screen up, through M⁻¹: z reads -g: \(first)")
            let written = try String(contentsOfFile: root + "/etc/udev/hwdb.d/61-sensor-local.hwdb", encoding: .utf8)
            #expect(written.contains(" ACCEL_MOUNT_MATRIX=\(CalibrationMachine.text(truth))\n"), "\(written)")
            // Its generation ended: the client's is the one left, and the daemon still serves it.
            let status = try await rig.client.call("status")
            #expect(status.result?["generating_connections"]?.integer == 1, "\(status)")
            #expect(status.result?["sensor"]?["status"]?.string == "active", "\(status)")
        }

        /// A client begins while calibrate polls: the daemon enables the buffer, the driver's raw reads fail from
        /// then on (the files answer no number), and once calibrate's sensor gives up the readings come through the
        /// daemon, the calibration going on where it was.
        @Test func aClientThatBeginsDuringTheCalibrationHandsItToTheDaemon() async throws {
            let truth = [[0, 1, 0], [-1, 0, 0], [0, 0, -1]]
            var machine = Self.bufferedBMC150(truth: truth)
            // Until the client begins the machine reads about a hundredth of 1 g: no pose to take (refused at most once).
            machine.display.fixture.raw = AxisValues(x: 0, y: 0, z: 10)
            let testbed = Testbed()
            try machine.add(to: testbed)
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox())
            let root = Self.scratchRoot()
            defer { try? FileManager.default.removeItem(atPath: root) }
            let driver = try CalibrationDriver(
                machine,
                testbed: testbed,
                arguments: ["--poll", "--hwdb-root", root],
                environment: ["ORIENTD_SOCKET": daemon.sandbox.socketPath]
            )
            #expect(await driver.child.waitUntil("the first step") { !driver.asked.isEmpty })

            let client = try daemon.connect()
            _ = try await client.call("begin")
            #expect(await daemon.waitForBufferEnable("1", machine.display.fixture))
            for axis in ["x", "y", "z"] {
                try testbed.setAttribute(machine.display.fixture.syspath, "in_accel_\(axis)_raw", "")
            }
            #expect(
                await driver.child.waitUntil("the readings through the daemon", timeout: .seconds(20)) {
                    driver.child.errorText.contains("come through the daemon")
                }
            )
            try await driver.follow()
            await driver.child.wait()
            #expect(driver.child.exitStatus == .exited(0), "\(driver.child.report)\n\(daemon.process.report)")
            let display = try #require(driver.result?["display"] as? [String: Any], "\(driver.child.report)")
            #expect(display["matrix"] as? String == CalibrationMachine.text(truth), "\(driver.child.report)")
        }

        /// A Chromebook convertible whose two accelerometers refuse raw readings while the daemon reads their
        /// buffers: both matrices, from the `sensor` and `base_sensor` readings of `status`.
        @Test func aConvertibleGivesBothHiddenMatricesThroughTheDaemon() async throws {
            let displayTruth = [[0, 1, 0], [-1, 0, 0], [0, 0, 1]]
            let baseTruth = [[1, 0, 0], [0, -1, 0], [0, 0, -1]]
            let machine = OrientdCalibrateTests.crosEC(display: displayTruth, base: baseTruth, buffered: true)
            let base = try #require(machine.base)
            let testbed = Testbed()
            try machine.addParents(to: testbed)
            try testbed.add(base.fixture.description)
            // No virtual tablet-mode switch (it would open the host's /dev/uinput): the client's begin starts both.
            let rig = try await GeneratingDaemon(
                fixture: machine.display.fixture,
                testbed: testbed,
                configuration: "[Policy]\nVirtualTabletSwitch=no\n"
            )
            #expect(await rig.daemon.waitForBufferEnable("1", base.fixture), "the base's buffer")
            for sensor in [machine.display, base] { try Self.refuseRawReadings(sensor.fixture, in: testbed) }
            let root = Self.scratchRoot()
            defer { try? FileManager.default.removeItem(atPath: root) }

            let driver = try await Self.calibrate(machine, testbed: testbed, root: root, socket: rig.sandbox.socketPath)
            #expect(driver.child.exitStatus == .exited(0), "\(driver.child.report)\n\(rig.daemon.process.report)")
            #expect(driver.child.errorText.contains("come through the daemon"), "\(driver.child.errorText)")
            #expect(driver.asked.count == 5)
            let result = try #require(driver.result, "\(driver.child.report)")
            let display = try #require(result["display"] as? [String: Any])
            let baseResult = try #require(result["base"] as? [String: Any])
            #expect(display["matrix"] as? String == CalibrationMachine.text(displayTruth), "\(driver.child.report)")
            #expect(baseResult["matrix"] as? String == CalibrationMachine.text(baseTruth), "\(driver.child.report)")
        }

        /// The daemon not running and the driver refusing raw readings (another program holds the buffer): the error
        /// says what to do, and nothing is written.
        @Test func withoutTheDaemonTheRefusalEndsItWithNothingWritten() async throws {
            let machine = Self.bufferedBMC150(truth: [[0, 1, 0], [-1, 0, 0], [0, 0, 1]])
            let testbed = Testbed()
            try machine.add(to: testbed)
            try testbed.setAttribute(machine.display.fixture.syspath, "buffer/enable", "1")
            try Self.refuseRawReadings(machine.display.fixture, in: testbed)
            let root = Self.scratchRoot()
            defer { try? FileManager.default.removeItem(atPath: root) }
            let sandbox = try DaemonSandbox()
            let child = try ChildProcess.orientd(
                ["calibrate", "--json", "--poll", "--hwdb-root", root],
                testbed: testbed,
                environment: ["ORIENTD_SOCKET": sandbox.socketPath]
            )
            #expect(await child.wait() == .exited(1), "\(child.report)")
            let line = try #require(child.outputLines.last)
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            let error = try #require(object?["error"] as? String, "\(child.report)")
            #expect(error.contains("cannot be read"), "\(error)")
            #expect(error.contains("nothing answers at \(sandbox.socketPath)"), "\(error)")
            #expect(error.contains("systemctl stop orientd"), "\(error)")
            #expect(!FileManager.default.fileExists(atPath: root), "nothing written")
        }
    }
}
