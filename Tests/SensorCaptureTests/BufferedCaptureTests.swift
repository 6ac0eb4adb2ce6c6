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

import OrientdTestKit
import Testing

/// A scan layout to capture, and whether the timestamp channel is enabled.
struct CaptureLayout: Sendable, CustomTestStringConvertible {
    var name: String
    var fixture: AccelerometerFixture
    var timestamp: Bool

    var testDescription: String { name }

    /// A fixture with `scanType` on every axis, the axes in `order`, and a timestamp channel (enabled or not).
    static func make(
        _ name: String,
        _ scanType: String,
        order: [Axis] = [.x, .y, .z],
        timestamp: Bool,
        configure: (inout AccelerometerFixture) -> Void = { _ in }
    ) -> CaptureLayout {
        var fixture = AccelerometerFixture(scanType: scanType, order: order, timestamp: true)
        configure(&fixture)
        return CaptureLayout(name: name, fixture: fixture, timestamp: timestamp)
    }

    static let all: [CaptureLayout] = [
        make("le:s16/16>>0, timestamp present but off", "le:s16/16>>0", timestamp: false),
        make("le:s12/16>>4, junk in the low bits", "le:s12/16>>4", timestamp: false) { $0.unusedBits = 0x000f },
        make("be:s32/32>>0 with timestamp", "be:s32/32>>0", timestamp: true),
        make("le:s16/16>>0 z,x,y with timestamp, padded", "le:s16/16>>0", order: [.z, .x, .y], timestamp: true) {
            $0.paddingByte = 0xaa
        },
        make("le:s16/32>>0, junk in the upper half", "le:s16/32>>0", timestamp: false) {
            $0.unusedBits = 0xdead_0000
        },
        make("be:s12/16>>4 y,z,x", "be:s12/16>>4", order: [.y, .z, .x], timestamp: false),
        make("le:s10/16>>6 with timestamp", "le:s10/16>>6", timestamp: true),
        make("cros-ec: no trigger, no timestamp channel", "le:s16/16>>0", timestamp: false) {
            $0.name = "cros-ec-accel"
            $0.trigger = .none
            $0.timestamp = nil
            $0.scale = .device("0.0047884")
        },
    ]
}

extension EmulatedDeviceTests {
    /// The buffered path: libiio opens the emulated node (a PTY), falls back to poll() + read(), and gets exactly
    /// the bytes the test writes to the PTY master. `iio_readdev` prints the scans it read, byte for byte.
    @Suite struct BufferedCaptureTests {
        /// Samples that reach both ends of the type's range, zero, minus one and values in between.
        static func samples(for type: ScanElementType, count: Int) -> [AxisValues<Int64>] {
            let range = type.range
            let span = range.upperBound - range.lowerBound
            let pick = { (step: Int64) in range.lowerBound + (step &* 2_654_435_761) % (span + 1) }
            let extremes: [AxisValues<Int64>] = [
                AxisValues(x: range.lowerBound, y: range.upperBound, z: type.isSigned ? -1 : 1),
                AxisValues(x: 0, y: range.upperBound / 2, z: range.lowerBound / 2),
            ]
            let others = (0..<Int64(max(0, count - extremes.count))).map { step in
                AxisValues(x: pick(3 * step + 1), y: pick(3 * step + 2), z: pick(3 * step + 3))
            }
            return Array((extremes + others).prefix(count))
        }

        /// Captures `scans` scans with `iio_readdev` and returns it, ended, with what the test wrote.
        static func capture(
            _ fixture: AccelerometerFixture,
            timestamp: Bool,
            samples: [AxisValues<Int64>],
            testbed: Testbed
        ) async throws -> (child: ChildProcess, written: [UInt8]) {
            var arguments = ["-T", "60000", "-b", "4", "-s", "\(samples.count)"]
            if let trigger = fixture.triggerName { arguments += ["-t", trigger] }
            arguments += [fixture.name, "accel_x", "accel_y", "accel_z"] + (timestamp ? ["timestamp"] : [])
            let child = try ChildProcess("iio_readdev", arguments, testbed: testbed)
            // libiio enables the buffer last, after opening the node: from then on written bytes are read.
            let enabled = await child.waitUntil("the buffer is enabled") {
                (try? testbed.attribute(fixture.syspath, "buffer/enable")) == "1"
            }
            guard enabled else { return (child, []) }
            for axis in Axis.allCases {
                #expect(try testbed.attribute(fixture.syspath, "scan_elements/in_accel_\(axis)_en") == "1")
            }
            if let trigger = fixture.triggerName {
                #expect(try testbed.attribute(fixture.syspath, "trigger/current_trigger") == trigger)
            }
            let timestamps =
                timestamp ? samples.indices.map { 1_700_000_000_000_000_000 + Int64($0) * 50_000_000 } : nil
            let written = fixture.encodeScans(samples, timestamps: timestamps)
            try testbed.write(written, to: fixture.deviceNode)
            let status = await child.wait()
            #expect(status == .exited(0), "\(child.report)")
            return (child, written)
        }

        @Test(arguments: CaptureLayout.all)
        func bytesInEqualScansOut(layout: CaptureLayout) async throws {
            let testbed = Testbed()
            try testbed.add(layout.fixture.description)
            let samples = Self.samples(for: layout.fixture.axes.x.type, count: 8)
            let (child, written) = try await Self.capture(
                layout.fixture,
                timestamp: layout.timestamp,
                samples: samples,
                testbed: testbed
            )
            #expect(!written.isEmpty)
            #expect(child.standardOutput == written, "\(child.report)")
            // Closing the buffer disables it and clears every scan element it enabled.
            #expect(try testbed.attribute(layout.fixture.syspath, "buffer/enable") == "0")
            #expect(try testbed.attribute(layout.fixture.syspath, "scan_elements/in_accel_x_en") == "0")
        }

        /// The PTY passes every byte value through unchanged: no line discipline, no flow control, no signals.
        @Test func everyByteValueSurvivesThePty() async throws {
            let fixture = AccelerometerFixture(scanType: "le:u16/16>>0", timestamp: false)
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let samples = (0..<Int64(128)).map { step -> AxisValues<Int64> in
                let low = 2 * step
                return AxisValues(x: low | (low + 1) << 8, y: (255 - low) | (254 - low) << 8, z: 0x0a0d)
            }
            let (child, written) = try await Self.capture(fixture, timestamp: false, samples: samples, testbed: testbed)
            #expect(Set(written).count == 256)
            #expect(child.standardOutput == written)
        }
    }
}
