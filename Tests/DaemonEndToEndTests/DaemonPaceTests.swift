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
    /// `IdleRate=` in poll mode: the daemon polls slowly while the device is still and settled, at the full rate
    /// from the first sample that moves, and a turn is decided with the idle rate on and off.
    @Suite struct DaemonPaceTests {
        /// A daemon polling a poll-only accelerometer at 50 Hz with `IdleRate=idleRate` (and `arguments`), generating
        /// for one client that has seen the first orientation (landscape-left).
        static func polling(
            idleRate: String,
            testbed: Testbed,
            arguments: [String] = []
        ) async throws -> (RunningDaemon, DaemonConnection) {
            var fixture = AccelerometerFixture()
            fixture.capture = .pollOnly
            try testbed.add(fixture.description)
            let sandbox = try DaemonSandbox()
            let config = sandbox.directory + "/orientd.conf"
            try "[Sensor]\nRate=50\nIdleRate=\(idleRate)\n".write(toFile: config, atomically: true, encoding: .utf8)
            let daemon = try await RunningDaemon(
                testbed: testbed,
                sandbox: sandbox,
                arguments: ["--poll-fallback-sec", "10", "--config", config] + arguments
            )
            let client = try daemon.connect()
            _ = try await client.call("begin")
            let first = try await client.events(until: "the first orientation") { $0.event == "device" }
            #expect(first.last?.state?["device"]?.string == "landscape-left", "\(first)")
            return (daemon, client)
        }

        /// The samples the daemon reads in `seconds` (`status` → `sensor.samples_read`, before and after).
        static func samplesRead(in seconds: Double, via connection: DaemonConnection) async throws -> Int {
            let read = { () async throws -> Int in
                try await connection.call("status").result?["sensor"]?["samples_read"]?.integer ?? -1
            }
            let before = try await read()
            try await Task.sleep(for: .seconds(seconds))
            return try await read() - before
        }

        /// Still for a second and a half, then 2 s at 2 Hz (4 samples; 100 at the full rate); a turn is read at the
        /// full rate from its first sample (25 samples in the half second after it is decided; 1 at 2 Hz).
        @Test func pollingSlowsWhileStillAndReturnsOnMotion() async throws {
            let testbed = Testbed()
            let (daemon, client) = try await Self.polling(idleRate: "2", testbed: testbed)
            let fixture = AccelerometerFixture()
            try await Task.sleep(for: .seconds(1.5))
            let still = try await Self.samplesRead(in: 2, via: client)
            #expect(still >= 1 && still <= 12, "2 Hz while still: \(still) samples in 2 s")

            try testbed.setAttribute(fixture.syspath, "in_accel_x_raw", "1000")
            try testbed.setAttribute(fixture.syspath, "in_accel_y_raw", "0")
            let turned = try await client.events(until: "portrait") { $0.state?["device"]?.string == "portrait" }
            #expect(turned.last?.event == "device" || turned.last?.event == "interface", "\(turned)")
            let moving = try await Self.samplesRead(in: 0.5, via: client)
            #expect(moving >= 10, "50 Hz after the turn began: \(moving) samples in 0.5 s")
            #expect(await daemon.stop() == .exited(0))
        }

        /// With `IdleRate=` equal to `Rate=` nothing slows down; with the idle rate on or off, a turn after a still
        /// spell is decided.
        @Test(arguments: [("2", false), ("50", true)])
        func aTurnAfterAStillSpellIsDecided(idleRate: String, fullWhileStill: Bool) async throws {
            let testbed = Testbed()
            let (daemon, client) = try await Self.polling(idleRate: idleRate, testbed: testbed)
            let fixture = AccelerometerFixture()
            try await Task.sleep(for: .seconds(1.5))
            let still = try await Self.samplesRead(in: 1, via: client)
            if fullWhileStill {
                #expect(still >= 20, "IdleRate=Rate: the full rate while still: \(still) samples in 1 s")
            } else {
                #expect(still <= 8, "IdleRate=2: \(still) samples in 1 s")
            }
            try testbed.setAttribute(fixture.syspath, "in_accel_x_raw", "-1000")
            try testbed.setAttribute(fixture.syspath, "in_accel_y_raw", "0")
            let turned = try await client.events(until: "portrait-upside-down") {
                $0.state?["device"]?.string == "portrait-upside-down"
            }
            #expect(turned.contains { $0.event == "device" && $0.previous == "landscape-left" }, "\(turned)")
            #expect(await daemon.stop() == .exited(0))
        }

        /// A buffered accelerometer offering 10, 20, 50 and 100 Hz, captured at 50 Hz (`IdleRate=` 2), and a
        /// client generating; the buffer is on.
        static func buffered() async throws -> GeneratingDaemon {
            var fixture = AccelerometerFixture()
            fixture.samplingFrequencyAvailable = "10 20 50 100"
            let rig = try await GeneratingDaemon(fixture: fixture)
            #expect(try rig.testbed.attribute(fixture.syspath, "sampling_frequency") == "50")
            return rig
        }

        /// Still: 10 Hz (the lowest offered at or above 2 Hz) with a buffer, and so a watermark, of 5 scans: two
        /// wake-ups a second. The first scan of a turn brings back 50 Hz and a watermark of 2 (40 ms); the turn is
        /// decided; stopping puts back the frequency the device had.
        @Test func aBufferedDeviceSamplesSlowlyWhileStillAndAtTheFullRateOnMotion() async throws {
            let rig = try await Self.buffered()
            let (fixture, testbed, daemon, client) = (rig.fixture, rig.testbed, rig.daemon, rig.client)
            let attribute = { (name: String) in try? testbed.attribute(fixture.syspath, name) }
            var feed = rig.feed
            try feed.hold(.normal, seconds: 2)
            #expect(
                await daemon.process.waitUntil("10 Hz while still", timeout: .seconds(10)) {
                    attribute("sampling_frequency") == "10" && attribute("buffer/enable") == "1"
                }
            )
            #expect(attribute("buffer/watermark") == "5", "libiio writes the buffer's size as the watermark")

            try feed.hold(.leftUp, seconds: 0.6)
            let turned = try await client.events(until: "portrait") { $0.state?["device"]?.string == "portrait" }
            #expect(turned.contains { $0.event == "device" }, "\(turned)")
            #expect(attribute("sampling_frequency") == "50" && attribute("buffer/watermark") == "2")
            #expect(attribute("buffer/enable") == "1")
            #expect(await daemon.stop() == .exited(0))
            #expect(attribute("sampling_frequency") == "10", "the device's own frequency is restored")
        }

        /// A driver that refuses a new `sampling_frequency` (here the attribute cannot be written) keeps its rate:
        /// the daemon says so once and reads at the full rate, and turns are still decided.
        @Test func aRefusedSamplingFrequencyKeepsTheFullRate() async throws {
            let rig = try await Self.buffered()
            let (fixture, testbed, daemon, client) = (rig.fixture, rig.testbed, rig.daemon, rig.client)
            let path = testbed.rootDirectory + fixture.syspath + "/sampling_frequency"
            try FileManager.default.removeItem(atPath: path)
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            var feed = rig.feed
            try feed.hold(.normal, seconds: 2)
            try feed.hold(.leftUp, seconds: 2)
            let turned = try await client.events(until: "portrait") { $0.state?["device"]?.string == "portrait" }
            #expect(turned.contains { $0.event == "device" }, "\(turned)")
            try feed.hold(.normal, seconds: 2)
            _ = try await client.events(until: "landscape-left") { $0.state?["device"]?.string == "landscape-left" }
            #expect(try testbed.attribute(fixture.syspath, "buffer/watermark") == "2")
            #expect(try testbed.attribute(fixture.syspath, "buffer/enable") == "1")
            #expect(await daemon.stop() == .exited(0))
            let log = daemon.process.errorText
            #expect(log.components(separatedBy: "sampling frequency cannot be lowered").count == 2, "once: \(log)")
        }
    }
}
