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

/// One event as `udevadm monitor --property` printed it.
struct MonitorEvent {
    /// `UDEV` or `KERNEL`.
    var source: String
    var action: String
    var devpath: String
    var properties: [String: String]

    /// Parses `udevadm monitor --property` output: a header line per event, its properties, a blank line.
    static func parse(_ lines: [String]) -> [MonitorEvent] {
        var events: [MonitorEvent] = []
        for line in lines {
            let words = line.split(separator: " ", omittingEmptySubsequences: true)
            if (line.hasPrefix("UDEV ") || line.hasPrefix("KERNEL[")) && words.count >= 4 && line.hasSuffix(")") {
                // "UDEV  [1760.054798] remove   /devices/… (iio)"; "KERNEL[1762.063091] add      /devices/… (iio)"
                let source = line.hasPrefix("UDEV") ? "UDEV" : "KERNEL"
                let offset = source == "UDEV" ? 1 : 0
                events.append(
                    MonitorEvent(
                        source: source,
                        action: String(words[offset + 1]),
                        devpath: String(words[offset + 2]),
                        properties: [:]
                    )
                )
            } else if let equals = line.firstIndex(of: "="), !events.isEmpty {
                events[events.count - 1].properties[String(line[..<equals])] = String(
                    line[line.index(after: equals)...]
                )
            }
        }
        return events
    }
}

extension EmulatedDeviceTests {
    /// Hotplug: events from the testbed reach a libudev monitor (stock `udevadm monitor`, Debian package `udev`) in
    /// a preloaded child, and a removed device can be added again and captured from through the same PTY.
    @Suite struct HotplugTests {
        /// Starts `udevadm monitor` for the iio subsystem and waits until both its monitors listen.
        static func startMonitor(_ testbed: Testbed) async throws -> ChildProcess? {
            let found = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
                .contains { FileManager.default.isExecutableFile(atPath: "\($0)/udevadm") }
            guard found else {
                Issue.record("udevadm not found: install the Debian package udev")
                return nil
            }
            let child = try ChildProcess(
                "udevadm",
                ["monitor", "--udev", "--kernel", "--property", "--subsystem-match=iio"],
                testbed: testbed
            )
            // Each libudev monitor binds a netlink socket, which the preload turns into <root>/event<N>.
            guard await child.waitUntil("two monitors listen", { testbed.monitorCount == 2 }) else { return nil }
            return child
        }

        /// Waits until the monitor has printed an event from libudev (`UDEV`) with this action and device.
        static func awaitEvent(
            _ monitor: ChildProcess,
            _ action: String,
            _ devpath: String,
            sourceLocation: SourceLocation = #_sourceLocation
        ) async -> MonitorEvent? {
            let seen = {
                MonitorEvent.parse(monitor.outputLines).first {
                    $0.source == "UDEV" && $0.action == action && $0.devpath == devpath
                }
            }
            _ = await monitor.waitUntil("it prints \(action) \(devpath)", sourceLocation: sourceLocation) {
                seen() != nil
            }
            return seen()
        }

        @Test func removeAndAddReachALibudevMonitor() async throws {
            var fixture = AccelerometerFixture()
            fixture.mountMatrices = [.udev: "0, -1, 0; 1, 0, 0; 0, 0, 1"]
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let monitor = try #require(try await Self.startMonitor(testbed))

            try testbed.removeDevice(fixture.syspath, announce: true)
            let removed = try #require(await Self.awaitEvent(monitor, "remove", fixture.devicePath))
            #expect(removed.properties["SUBSYSTEM"] == "iio")
            #expect(removed.properties["DEVNAME"] == fixture.deviceNode)
            #expect(removed.properties["DEVTYPE"] == "iio_device")
            #expect(removed.properties["ACCEL_MOUNT_MATRIX"] == "0, -1, 0; 1, 0, 0; 0, 0, 1")

            try testbed.add(fixture.deviceDescription, announce: true)
            let added = try #require(await Self.awaitEvent(monitor, "add", fixture.devicePath))
            #expect(added.properties["ACCEL_MOUNT_MATRIX"] == "0, -1, 0; 1, 0, 0; 0, 0, 1")
            #expect(Int(added.properties["SEQNUM"] ?? "") ?? 0 > Int(removed.properties["SEQNUM"] ?? "") ?? 0)

            monitor.interrupt()
            #expect(await monitor.wait() == .exited(0), "\(monitor.report)")
        }

        /// The monitor's subsystem filter (a socket filter on the header's subsystem hash) passes iio and drops
        /// the rest: datagrams arrive in order, so once the later iio event is printed the earlier one was dropped.
        @Test func subsystemFilterDropsOtherDevices() async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            try testbed.add("P: /devices/platform/i8042/serio0/input/input3\nE: SUBSYSTEM=input\nA: name=keyboard\\n\n")
            let monitor = try #require(try await Self.startMonitor(testbed))

            try testbed.uevent("/sys/devices/platform/i8042/serio0/input/input3", action: "change")
            try testbed.uevent(fixture.syspath, action: "change")
            _ = try #require(await Self.awaitEvent(monitor, "change", fixture.devicePath))
            let events = MonitorEvent.parse(monitor.outputLines)
            #expect(events.allSatisfy { $0.devpath == fixture.devicePath }, "\(monitor.report)")
            monitor.terminate()
            #expect(await monitor.wait() == .exited(0), "\(monitor.report)")
        }

        /// A device removed and added again is usable at once: polled, and buffered through its old PTY.
        @Test func readdedDeviceIsPolledAndCapturedAgain() async throws {
            var fixture = AccelerometerFixture()
            fixture.raw = AxisValues(x: 11, y: -1000, z: 0)
            let testbed = Testbed()
            try testbed.add(fixture.description)
            #expect(try await PollTests.readRaw(testbed, device: "accel_3d", channel: "accel_x") == "11")

            try testbed.removeDevice(fixture.syspath)
            fixture.raw.x = 22
            try testbed.add(fixture.deviceDescription)
            #expect(try await PollTests.readRaw(testbed, device: "accel_3d", channel: "accel_x") == "22")

            let samples = BufferedCaptureTests.samples(for: fixture.axes.x.type, count: 8)
            let (child, written) = try await BufferedCaptureTests.capture(
                fixture,
                timestamp: true,
                samples: samples,
                testbed: testbed
            )
            #expect(!written.isEmpty)
            #expect(child.standardOutput == written, "\(child.report)")
        }
    }
}
