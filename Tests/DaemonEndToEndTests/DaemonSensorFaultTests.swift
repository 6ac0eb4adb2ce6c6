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
    /// Sensor faults while someone generates: a buffer that stops delivering (as many drivers do after a resume),
    /// a clock that jumps between two samples, readings of zeros or at the limit of the range, read errors. The
    /// daemon keeps serving through each, and the client sees orientation again afterwards.
    @Suite struct DaemonSensorFaultTests {
        /// A daemon capturing through the buffer, a client that began, and one orientation seen.
        struct Running {
            let fixture: AccelerometerFixture
            let testbed: Testbed
            let daemon: RunningDaemon
            let client: DaemonConnection
            var feed: AccelerometerFeed

            init(pollFallback: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
                let rig = try await GeneratingDaemon(
                    arguments: ["--rate", "50", "--poll-fallback-sec", pollFallback],
                    sourceLocation: sourceLocation
                )
                (fixture, testbed, daemon, client, feed) = (rig.fixture, rig.testbed, rig.daemon, rig.client, rig.feed)
                try feed.hold(.normal)
                let change = try await client.nextChange()
                #expect(
                    change.first?.state?["device"]?.string == "landscape-left",
                    "\(change)",
                    sourceLocation: sourceLocation
                )
                try await daemon.waitUntilRead(feed.written, via: client)
            }

            /// The driver loses its enabled buffer (as after a resume): `buffer/enable` reads 0.
            func loseTheBuffer() throws {
                try testbed.setAttribute(fixture.syspath, "buffer/enable", "0")
            }

            func sensorStatus() async throws -> DaemonJSON? {
                try await client.call("status").result?["sensor"]
            }
        }

        /// The buffer falls silent after it delivered: the daemon disables and enables it again (a driver that
        /// lost it after a resume gets it back), and capture goes on through the buffer without a `sensor` event.
        @Test(arguments: Reliability.runs)
        func aBufferThatFallsSilentIsEnabledAgain(run: Int) async throws {
            var running = try await Running(pollFallback: "2")
            try running.loseTheBuffer()
            #expect(await running.daemon.waitForBufferEnable("1", running.fixture), "the buffer is enabled again")
            _ = await running.daemon.log(
                showing: "disabling and enabling the buffer again",
                "reason=the buffer delivered nothing usable for 2 s"
            )

            try running.feed.hold(.leftUp)
            let change = try await running.client.events(until: "portrait") {
                $0.state?["device"]?.string == "portrait"
            }
            #expect(!change.contains { $0.event == "sensor" }, "the sensor stayed active: \(change)")
            let sensor = try await running.sensorStatus()
            #expect(sensor?["status"]?.string == "active", "\(String(describing: sensor))")
            #expect(sensor?["mode"]?.string == "buffer", "\(String(describing: sensor))")
            #expect(sensor?["fell_back"]?.bool == false, "\(String(describing: sensor))")
            DaemonContract.expectWellOrdered(running.client.log.filter(\.isEvent))
            #expect(await running.daemon.stop() == .exited(0))
            #expect(running.daemon.bufferEnable(running.fixture) == "0")
        }

        /// A buffer that stays silent after it was enabled again is replaced by polling, and the raw attributes
        /// drive the orientation from then on.
        @Test(arguments: Reliability.runs)
        func aBufferThatStaysSilentIsReplacedByPolling(run: Int) async throws {
            let running = try await Running(pollFallback: "2")
            try running.loseTheBuffer()
            let client = running.client
            var sensor = try await running.sensorStatus()
            let deadline = ContinuousClock.now + .seconds(20)
            while sensor?["mode"]?.string != "poll" && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
                sensor = try await running.sensorStatus()
            }
            #expect(sensor?["mode"]?.string == "poll", "\(String(describing: sensor))")
            #expect(sensor?["fell_back"]?.bool == true, "\(String(describing: sensor))")
            #expect(sensor?["status"]?.string == "active", "\(String(describing: sensor))")
            _ = await running.daemon.log(
                showing: "disabling and enabling the buffer again",
                "the buffer does not deliver: polling instead",
                "reason=the buffer stayed silent for 2 s after it was enabled again"
            )

            for (axis, value) in [("x", "1000"), ("y", "0"), ("z", "0")] {
                try running.testbed.setAttribute(running.fixture.syspath, "in_accel_\(axis)_raw", value)
            }
            let change = try await client.events(until: "portrait") { $0.state?["device"]?.string == "portrait" }
            #expect(!change.contains { $0.event == "sensor" }, "the sensor stayed active: \(change)")
            #expect(await running.daemon.stop() == .exited(0))
        }

        /// A buffer that delivers a few scans after it was enabled again and then falls silent once more is
        /// polled, rather than disabled and enabled again for as long as someone generates.
        @Test(arguments: Reliability.runs)
        func aBufferThatFallsSilentAgainSoonAfterItWasEnabledAgainIsPolled(run: Int) async throws {
            var running = try await Running(pollFallback: "2")
            try running.loseTheBuffer()
            #expect(await running.daemon.waitForBufferEnable("1", running.fixture), "the buffer is enabled again")
            // Ten scans (0.2 s at 50 Hz): fewer than one watch period's worth, then silence.
            try running.feed.hold(.normal, seconds: 0.2)
            var sensor = try await running.sensorStatus()
            let deadline = ContinuousClock.now + .seconds(20)
            while sensor?["mode"]?.string != "poll" && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
                sensor = try await running.sensorStatus()
            }
            #expect(sensor?["mode"]?.string == "poll", "\(String(describing: sensor))")
            #expect(sensor?["fell_back"]?.bool == true, "\(String(describing: sensor))")
            let log = await running.daemon.log(
                showing: "the buffer does not deliver: polling instead",
                "again soon after the buffer was enabled again)"
            )
            let revalidations = log.components(separatedBy: "disabling and enabling the buffer again").count - 1
            #expect(revalidations == 1, "one re-validation, then polling: \(log)")
            #expect(await running.daemon.stop() == .exited(0))
        }

        /// Two samples more than 5 s apart (the IIO timestamp clock ran on through a suspend) make the daemon
        /// re-validate the buffer at once, long before the silence check could.
        @Test(arguments: Reliability.runs)
        func aClockJumpBetweenSamplesReenablesTheBuffer(run: Int) async throws {
            var running = try await Running(pollFallback: "10")
            try running.loseTheBuffer()
            running.feed.skip(seconds: 30)
            try running.feed.hold(.normal, seconds: 0.2)
            #expect(await running.daemon.waitForBufferEnable("1", running.fixture), "the buffer is enabled again")
            let log = await running.daemon.log(showing: "the clock jumped by 30 s between two samples")
            #expect(!log.contains("delivered nothing usable"), "the jump, not silence, re-validated: \(log)")

            try running.feed.hold(.leftUp)
            let change = try await running.client.events(until: "portrait") {
                $0.state?["device"]?.string == "portrait"
            }
            #expect(!change.contains { $0.event == "sensor" }, "\(change)")
            #expect(try await running.sensorStatus()?["mode"]?.string == "buffer")
            #expect(await running.daemon.stop() == .exited(0))
        }

        /// Readings clipped at the limit of the range (one axis at 32767: a knock, or a stuck sensor) and readings
        /// of 0 on every axis carry no direction: from the first sample on, they never produce an orientation,
        /// the status says why, and plausible readings are used again as soon as they come.
        @Test(arguments: Reliability.runs)
        func saturatedAndZeroReadingsNeverRotate(run: Int) async throws {
            let rig = try await GeneratingDaemon()
            let (daemon, client) = (rig.daemon, rig.client)
            var feed = rig.feed

            // Believed, this would be left edge up (portrait): x clipped at the top of le:s16.
            try feed.hold(raw: AxisValues(x: 32767, y: -1000, z: 0), seconds: 2)
            try await daemon.waitUntilRead(feed.written, via: client)
            let saturated = try await client.call("status").result
            #expect(saturated?["state"]?["device"]?.string == "unknown", "\(String(describing: saturated))")
            #expect(
                saturated?["sensor"]?["last_error"]?.string?.contains("limit of its range (saturated)") == true,
                "\(String(describing: saturated))"
            )
            #expect(client.inbox.filter(\.isEvent).isEmpty, "no event: \(client.inbox)")

            try feed.hold(.normal)
            let first = try await client.nextChange()
            #expect(first.first?.state?["device"]?.string == "landscape-left", "\(first)")

            try feed.hold(raw: AxisValues(x: 0, y: 0, z: 0), seconds: 2)
            try await daemon.waitUntilRead(feed.written, via: client)
            let zero = try await client.call("status").result
            #expect(zero?["state"]?["device"]?.string == "landscape-left", "\(String(describing: zero))")
            #expect(
                zero?["sensor"]?["last_error"]?.string?.contains("reads 0 on every axis") == true,
                "\(String(describing: zero))"
            )
            #expect(client.inbox.filter(\.isEvent).isEmpty, "no event: \(client.inbox)")

            try feed.hold(.leftUp)
            let change = try await client.events(until: "portrait") { $0.state?["device"]?.string == "portrait" }
            #expect(!change.contains { $0.event == "sensor" }, "\(change)")
            let log = await daemon.log(showing: "readings are plausible again")
            #expect(log.components(separatedBy: "readings ignored until").count == 3, "each run logged once: \(log)")
            #expect(await daemon.stop() == .exited(0))
        }

        /// A raw attribute that cannot be read (here it shows no number, as a driver in trouble can; a fresh open
        /// finds a directory: EISDIR) is logged once and retried; when it keeps failing the sensor becomes `failed`
        /// with the reason in `status`, the daemon keeps serving, and the sensor is `active` again with orientation
        /// once the attribute reads again.
        @Test(arguments: Reliability.runs)
        func aLastingReadErrorFailsTheSensorUntilItReadsAgain(run: Int) async throws {
            let polled = try await PolledDaemon()
            let (fixture, testbed, daemon, client, first) = (
                polled.fixture, polled.testbed, polled.daemon, polled.client, polled.firstChange
            )
            #expect(first.first?.state?["device"]?.string == "landscape-left", "\(first)")

            // The daemon holds the attribute open: what it reads there fails first, then its retries open the path.
            let attribute = testbed.rootDirectory + fixture.syspath + "/in_accel_x_raw"
            try testbed.setAttribute(fixture.syspath, "in_accel_x_raw", "?")
            try FileManager.default.removeItem(atPath: attribute)
            try FileManager.default.createDirectory(atPath: attribute, withIntermediateDirectories: false)
            let failed = try await client.events(until: "the sensor fails", timeout: .seconds(20)) {
                $0.event == "sensor"
            }
            #expect(failed.last?.previous == "active", "\(failed)")
            #expect(failed.last?.state?["sensor"]?.string == "failed", "\(failed)")
            #expect(failed.last?.state?["device"]?.string == "unknown", "\(failed)")
            #expect(failed.last?.state?["interface"]?.string == "landscape-right", "the interface keeps its value")
            let other = try daemon.connect()
            let status = try await other.call("status").result?["sensor"]
            #expect(status?["status"]?.string == "failed", "\(String(describing: status))")
            #expect(
                status?["last_error"]?.string?.contains("accel_x raw") == true,
                "\(String(describing: status))"
            )
            let log = await daemon.log(showing: "cannot read the accelerometer")
            #expect(log.components(separatedBy: "cannot read the accelerometer").count == 2, "logged once: \(log)")

            try FileManager.default.removeItem(atPath: attribute)
            try testbed.setAttribute(fixture.syspath, "in_accel_x_raw", "1000")
            try testbed.setAttribute(fixture.syspath, "in_accel_y_raw", "0")
            let back = try await client.events(until: "portrait", timeout: .seconds(20)) {
                $0.state?["device"]?.string == "portrait"
            }
            let active = back.first { $0.event == "sensor" }
            #expect(active?.previous == "failed" && active?.state?["sensor"]?.string == "active", "\(back)")
            DaemonContract.expectWellOrdered(client.log.filter(\.isEvent))
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
