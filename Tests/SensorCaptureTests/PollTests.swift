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
    /// The poll path: libiio reads `in_accel_*_raw` afresh on every read, so testbed changes are seen at once; the
    /// daemon, which holds the files open, sees a value written in place at its next poll and a file replaced (as
    /// umockdev's `set_attribute` and the test suites built on it change a value) within a second.
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

        /// The inode number of an attribute's file, to tell that it was replaced.
        static func identity(_ testbed: Testbed, _ syspath: String, _ name: String) throws -> Int? {
            let path = testbed.rootDirectory + syspath + "/" + name
            return try FileManager.default.attributesOfItem(atPath: path)[.systemFileNumber] as? Int
        }

        /// Values changed as umockdev's `set_attribute` changes them (a new file renamed over the old one) reach
        /// `orientd record --poll`, which holds the old files open, within a second.
        @Test func pollModeSeesReplacedAttributeFilesWithinASecond() async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let child = try ChildProcess.orientd(["record", "--poll", "--rate", "50"], testbed: testbed)
            #expect(await child.waitUntil("a first sample") { !OrientdRecordTests.samples(child).isEmpty })
            #expect(OrientdRecordTests.samples(child).first?.isClose(to: [0, -9.80665, 0]) == true)
            let before = try Self.identity(testbed, fixture.syspath, "in_accel_x_raw")

            let replaced = ContinuousClock.now
            try testbed.replaceAttribute(fixture.syspath, "in_accel_x_raw", "500")
            try testbed.replaceAttribute(fixture.syspath, "in_accel_y_raw", "0")
            try testbed.replaceAttribute(fixture.syspath, "in_accel_z_raw", "-250")
            #expect(try Self.identity(testbed, fixture.syspath, "in_accel_x_raw") != before, "a new file")
            #expect(
                await child.waitUntil("the new values", timeout: .seconds(10)) {
                    OrientdRecordTests.samples(child).last?.isClose(to: [4.903325, 0, -2.4516625]) == true
                }
            )
            let seenAfter = ContinuousClock.now - replaced
            #expect(seenAfter < .seconds(1), "seen after \(seenAfter)")
            child.interrupt()
            #expect(await child.wait() == .exited(0), "\(child.report)")
        }

        /// A raw attribute replaced by something that cannot be read (a directory: EISDIR) while the daemon polls
        /// through the old file: the error shows in `status`'s `last_error` within a second, long before the
        /// sensor would fail, and a readable file put back is read again.
        @Test func aReplacedAttributeThatCannotBeReadShowsInStatus() async throws {
            let polled = try await PolledDaemon()
            let (fixture, testbed, daemon, client, first) = (
                polled.fixture, polled.testbed, polled.daemon, polled.client, polled.firstChange
            )
            #expect(first.first?.state?["device"]?.string == "landscape-left", "\(first)")

            let attribute = testbed.rootDirectory + fixture.syspath + "/in_accel_x_raw"
            try FileManager.default.removeItem(atPath: attribute)
            try FileManager.default.createDirectory(atPath: attribute, withIntermediateDirectories: false)
            let replaced = ContinuousClock.now
            let other = try daemon.connect()
            var lastError: String?
            while ContinuousClock.now - replaced < .seconds(3), lastError == nil {
                lastError = try await other.call("status").result?["sensor"]?["last_error"]?.string
                try await Task.sleep(for: .milliseconds(20))
            }
            let shownAfter = ContinuousClock.now - replaced
            #expect(lastError?.contains("accel_x raw") == true, "\(String(describing: lastError))")
            #expect(lastError?.contains("Is a directory") == true, "\(String(describing: lastError))")
            #expect(shownAfter < .seconds(1), "shown after \(shownAfter)")

            try FileManager.default.removeItem(atPath: attribute)
            try testbed.replaceAttribute(fixture.syspath, "in_accel_x_raw", "1000")
            try testbed.replaceAttribute(fixture.syspath, "in_accel_y_raw", "0")
            let back = try await client.events(until: "portrait", timeout: .seconds(10)) {
                $0.state?["device"]?.string == "portrait"
            }
            #expect(back.last?.state?["sensor"]?.string == "active", "\(back)")
            #expect(await daemon.stop() == .exited(0))
        }

        /// A polled device whose sysfs goes while it is read, with no udev `remove` event (a driver that unbinds
        /// oddly): the daemon, which holds the attributes open, finds it at its next look for replaced files (within
        /// a second), the sensor goes `absent` (not read from stale files for ever), and the device announced again
        /// is read again.
        @Test func aPolledDeviceThatVanishesWithoutAUeventIsAbsentUntilItComesBack() async throws {
            let polled = try await PolledDaemon()
            let (fixture, testbed, daemon, client, first) = (
                polled.fixture, polled.testbed, polled.daemon, polled.client, polled.firstChange
            )
            #expect(first.first?.state?["device"]?.string == "landscape-left", "\(first)")
            #expect(await daemon.process.waitUntil("its udev monitor listens") { testbed.monitorCount >= 1 })

            try testbed.removeDevice(fixture.syspath, announce: false)
            let gone = try await client.nextChange(timeout: .seconds(10), "the sensor event after the device went")
            #expect(gone.first?.event == "sensor" && gone.first?.previous == "active", "\(gone)")
            #expect(gone.first?.state?["sensor"]?.string == "absent", "\(gone)")
            #expect(gone.first?.state?["device"]?.string == "unknown", "\(gone)")
            #expect(gone.first?.state?["interface"]?.string == "landscape-right", "the interface keeps its value")
            let status = try #require(try await daemon.connect().call("status").result?["sensor"])
            #expect(status["status"]?.string == "absent", "\(status)")
            let log = await daemon.log(showing: "the accelerometer is gone")
            #expect(log.components(separatedBy: "the accelerometer is gone").count == 2, "logged once: \(log)")
            #expect(log.contains("sysfs folder is gone"), "\(log)")

            var returning = fixture
            returning.raw = AxisValues(x: 1000, y: 0, z: 0)
            try testbed.add(returning.deviceDescription, announce: true)
            let back = try await client.events(until: "portrait", timeout: .seconds(10)) {
                $0.state?["device"]?.string == "portrait"
            }
            let active = back.first { $0.event == "sensor" }
            #expect(active?.previous == "absent" && active?.state?["sensor"]?.string == "active", "\(back)")
            DaemonContract.expectWellOrdered(client.log.filter(\.isEvent))
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
