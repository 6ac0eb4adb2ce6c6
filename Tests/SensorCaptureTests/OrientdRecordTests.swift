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

/// A sample line of a recorded trace.
struct RecordedSample: Equatable {
    var t: Double
    var x: Double
    var y: Double
    var z: Double

    /// x, y and z.
    var vector: [Double] { [x, y, z] }

    /// Whether x, y and z are within the trace's printed precision (4 decimals) of `expected`.
    func isClose(to expected: [Double]) -> Bool {
        zip(vector, expected).allSatisfy { abs($0 - $1) <= 0.00005 + 1e-12 }
    }

    /// The data lines of `orientd record` output (comments and the header skipped).
    static func parse(_ lines: [String]) -> [RecordedSample] {
        lines.compactMap { line in
            let fields = line.split(separator: ",").compactMap { Double($0) }
            guard fields.count == 4, !line.hasPrefix("#") else { return nil }
            return RecordedSample(t: fields[0], x: fields[1], y: fields[2], z: fields[3])
        }
    }
}

extension EmulatedDeviceTests {
    /// `orientd record` on emulated accelerometers: bytes or attribute values in, calibrated samples out.
    @Suite struct OrientdRecordTests {
        static func samples(_ child: ChildProcess) -> [RecordedSample] {
            RecordedSample.parse(child.outputLines)
        }

        @Test func pollModeSeesChangedValuesAtTheNextPoll() async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let child = try ChildProcess.orientd(["record", "--poll", "--rate", "50"], testbed: testbed)
            #expect(await child.waitUntil("a first sample") { !Self.samples(child).isEmpty })
            // 1 g = 1000 counts × 0.00980665 on y; no mount matrix.
            #expect(Self.samples(child).first?.isClose(to: [0, -9.80665, 0]) == true)
            try testbed.setAttribute(fixture.syspath, "in_accel_x_raw", "500")
            try testbed.setAttribute(fixture.syspath, "in_accel_y_raw", "0")
            try testbed.setAttribute(fixture.syspath, "in_accel_z_raw", "-250")
            #expect(
                await child.waitUntil("the new values") {
                    Self.samples(child).last?.isClose(to: [4.903325, 0, -2.4516625]) == true
                }
            )
            child.interrupt()
            #expect(await child.wait() == .exited(0), "\(child.report)")
            #expect(child.outputLines.first == "# orientd-trace 1")
        }

        /// An accelerometer of the input subsystem, with no IIO one: its readings, through the udev matrix, in m/s².
        @Test func anInputAccelerometerIsRecorded() async throws {
            let fixture = InputAccelerometerFixture(
                mountMatrix: "0, -1, 0; 1, 0, 0; 0, 0, 1",
                initial: AxisValues(x: 0, y: 1000, z: 0)
            )
            let testbed = Testbed()
            try fixture.add(to: testbed)
            let child = try ChildProcess.orientd(["record"], testbed: testbed)
            // The values held at the open: x' = −y = −1 g.
            #expect(
                await child.waitUntil("a first sample") {
                    Self.samples(child).first?.isClose(to: [-9.80665, 0, 0]) == true
                },
                "\(child.report)"
            )
            try testbed.write(
                InputAccelerometerFixture.report(AxisValues(x: 500, y: 0, z: -250)),
                to: fixture.deviceNode
            )
            #expect(
                await child.waitUntil("the new values") {
                    Self.samples(child).last?.isClose(to: [0, 4.903325, -2.4516625]) == true
                },
                "\(child.report)"
            )
            child.interrupt()
            #expect(await child.wait() == .exited(0), "\(child.report)")
        }

        /// A display and a base accelerometer: one two-sensor trace, each line the display's reading or the base's.
        @Test func bothAccelerometersAreRecordedInATwoSensorTrace() async throws {
            let (display, base) = AccelerometerFixture.convertiblePair()
            let testbed = Testbed()
            try testbed.add(display.description)
            try testbed.add(base.description)
            let child = try ChildProcess.orientd(["record", "--poll", "--rate", "50"], testbed: testbed)
            func rows() -> [[Substring]] {
                child.outputLines.filter { !$0.hasPrefix("#") && !$0.hasPrefix("t,") }
                    .map { $0.split(separator: ",", omittingEmptySubsequences: false) }
            }
            #expect(
                await child.waitUntil("lines of both sensors") {
                    rows().contains { $0.count == 7 && $0[1].isEmpty }
                        && rows().contains { $0.count == 7 && $0[4].isEmpty }
                }
            )
            child.interrupt()
            #expect(await child.wait() == .exited(0), "\(child.report)")
            #expect(child.outputLines.dropFirst(2).first == "t,x,y,z,bx,by,bz", "\(child.report)")
            #expect(rows().allSatisfy { $0.count == 7 })
            let baseRow = try #require(rows().first { $0[1].isEmpty })
            // The base's own reading, in systemd's frame: flat, keyboard up, it reads z -g.
            #expect(baseRow[4...].compactMap { Double($0) } == [0, 0, -9.8066], "the base's own reading")
            let displayRow = try #require(rows().first { $0[4].isEmpty })
            #expect(displayRow[1...3].compactMap { Double($0) } == [0, -9.8066, 0])
        }

        /// Bytes written to the emulated device come out as exactly the calibrated vectors, for many layouts.
        @Test(arguments: CaptureLayout.all)
        func bufferedScansBecomeCalibratedSamples(layout: CaptureLayout) async throws {
            var fixture = layout.fixture
            fixture.mountMatrices = [.udev: "0, -1, 0; 1, 0, 0; 0, 0, 1"]
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let child = try ChildProcess.orientd(["record", "--poll-fallback-sec", "10"], testbed: testbed)
            #expect(
                await child.waitUntil("the buffer is enabled") {
                    (try? testbed.attribute(fixture.syspath, "buffer/enable")) == "1"
                }
            )
            let raw = BufferedCaptureTests.samples(for: fixture.axes.x.type, count: 8)
            let timestamps = fixture.timestamp == nil ? nil : raw.indices.map { Int64($0) * 50_000_000 + 7_000_000_000 }
            try testbed.write(fixture.encodeScans(raw, timestamps: timestamps), to: fixture.deviceNode)
            #expect(await child.waitUntil("8 samples") { Self.samples(child).count >= 8 })
            child.interrupt()
            #expect(await child.wait() == .exited(0), "\(child.report)")

            let scale: Double =
                switch fixture.scale {
                case .shared(let text), .device(let text): Double(text)!
                default: 1
                }
            let recorded = Self.samples(child)
            #expect(recorded.count == 8, "\(child.report)")
            for (sample, input) in zip(recorded, raw) {
                // M·v with M = (0 −1 0; 1 0 0; 0 0 1): x' = −y, y' = x.
                let expected = (
                    x: -Double(input.y) * scale, y: Double(input.x) * scale, z: Double(input.z) * scale
                )
                #expect(abs(sample.x - expected.x) <= 0.00005 + 1e-9 * abs(expected.x), "\(sample) vs \(expected)")
                #expect(abs(sample.y - expected.y) <= 0.00005 + 1e-9 * abs(expected.y), "\(sample) vs \(expected)")
                #expect(abs(sample.z - expected.z) <= 0.00005 + 1e-9 * abs(expected.z), "\(sample) vs \(expected)")
            }
            if timestamps != nil {
                // t from the timestamp channel: 50 ms apart, from the first scan.
                for (index, sample) in recorded.enumerated() {
                    #expect(abs(sample.t - Double(index) * 0.05) < 1e-9, "\(recorded.map(\.t))")
                }
            }
        }

        @Test func stopRestoresTheDeviceAsItWas() async throws {
            var fixture = AccelerometerFixture()
            fixture.samplingFrequencyAvailable = "10 20 50 100"
            fixture.hysteresis = "5"
            let testbed = Testbed()
            try testbed.add(fixture.description)
            // Another program's settings before recording: timestamp enabled, no trigger.
            try testbed.setAttribute(fixture.syspath, "scan_elements/in_timestamp_en", "1")
            let path = fixture.syspath
            let before = try [
                "scan_elements/in_accel_x_en", "scan_elements/in_timestamp_en", "trigger/current_trigger",
            ]
            .map { try testbed.attribute(path, $0) }

            let child = try ChildProcess.orientd(["record", "--poll-fallback-sec", "10"], testbed: testbed)
            #expect(
                await child.waitUntil("the buffer is enabled") {
                    (try? testbed.attribute(path, "buffer/enable")) == "1"
                }
            )
            #expect(try testbed.attribute(path, "sampling_frequency") == "20")
            #expect(try testbed.attribute(path, "in_accel_hysteresis") == "0")
            #expect(try testbed.attribute(path, "trigger/current_trigger") == fixture.triggerName)
            child.interrupt()
            #expect(await child.wait() == .exited(0), "\(child.report)")

            #expect(try testbed.attribute(path, "buffer/enable") == "0")
            #expect(try testbed.attribute(path, "sampling_frequency") == "10")
            #expect(try testbed.attribute(path, "in_accel_hysteresis") == "5")
            let after = try ["scan_elements/in_accel_x_en", "scan_elements/in_timestamp_en", "trigger/current_trigger"]
                .map { try testbed.attribute(path, $0) }
            #expect(after == before)
        }

        @Test func aSilentBufferFallsBackToPolling() async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let child = try ChildProcess.orientd(["record", "--poll-fallback-sec", "0.5"], testbed: testbed)
            #expect(await child.waitUntil("polled samples") { Self.samples(child).count >= 3 })
            child.interrupt()
            #expect(await child.wait() == .exited(0), "\(child.report)")
            #expect(child.errorText.contains("polling instead"), "\(child.report)")
            #expect(Self.samples(child).allSatisfy { $0.isClose(to: [0, -9.80665, 0]) })
            #expect(try testbed.attribute(fixture.syspath, "buffer/enable") == "0")
        }

        @Test(arguments: [true, false])
        func aRemovedDeviceIsAbsentThenResumedWhenItReturns(polling: Bool) async throws {
            var fixture = AccelerometerFixture()
            fixture.trigger = .none
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let arguments =
                ["record", "--poll-fallback-sec", "0.5", "--rate", "50", "-v"] + (polling ? ["--poll"] : [])
            let child = try ChildProcess.orientd(arguments, testbed: testbed)
            #expect(await child.waitUntil("samples") { Self.samples(child).count >= 2 })

            try testbed.removeDevice(fixture.syspath, announce: true)
            #expect(await child.waitUntil("the device is reported gone") { child.errorText.contains("is gone") })
            let countWhileGone = Self.samples(child).count

            var returned = fixture
            returned.raw = AxisValues(x: 1000, y: 0, z: 0)
            try testbed.add(returned.deviceDescription, announce: true)
            #expect(await child.waitUntil("recording again") { child.errorText.contains("recording again") })
            #expect(
                await child.waitUntil("samples of the returned device") {
                    Self.samples(child).dropFirst(countWhileGone).contains { $0.isClose(to: [9.80665, 0, 0]) }
                }
            )
            child.interrupt()
            #expect(await child.wait() == .exited(0), "\(child.report)")
        }

        @Test func recordWithoutAnAccelerometerSaysSoAndFails() async throws {
            let child = try ChildProcess.orientd(["record", "--seconds", "1"], testbed: Testbed())
            #expect(await child.wait() == .exited(1))
            #expect(child.errorText.contains("no accelerometer"), "\(child.report)")
        }
    }
}
