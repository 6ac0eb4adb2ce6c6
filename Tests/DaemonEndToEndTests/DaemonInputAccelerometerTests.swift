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
    /// A machine whose accelerometer belongs to the input subsystem (an emulated lis3lv02d, udev's
    /// `ID_INPUT_ACCELEROMETER=1`): the daemon reads its evdev node through libevdev, only while someone generates,
    /// calibrated by hwdb's `ACCEL_MOUNT_MATRIX`; an IIO display accelerometer beside it is preferred.
    @Suite struct DaemonInputAccelerometerTests {
        /// The emulated node's PTY slave (`/dev/pts/N`): the testbed's node is a link to it, and the daemon's
        /// descriptor of the node points to it.
        static func terminal(of fixture: InputAccelerometerFixture, in testbed: Testbed) throws -> String {
            try FileManager.default.destinationOfSymbolicLink(atPath: testbed.rootDirectory + fixture.deviceNode)
        }

        /// Whether the process `pid` holds a descriptor of `path`.
        static func holdsOpen(_ pid: pid_t, _ path: String) -> Bool {
            let directory = "/proc/\(pid)/fd"
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            return entries.contains {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + $0)) == path
            }
        }

        @Test(arguments: [nil, "0, -1, 0; 1, 0, 0; 0, 0, 1"])
        func aTurnIsReportedAndTheNodeIsOpenOnlyWhileGenerating(matrix: String?) async throws {
            let fixture = InputAccelerometerFixture(mountMatrix: matrix)
            let testbed = Testbed()
            try fixture.add(to: testbed)
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox())
            let client = try daemon.connect()
            let terminal = try Self.terminal(of: fixture, in: testbed)
            let pid = daemon.process.pid

            // Nobody generates: the accelerometer is named, stopped, and its node is not open.
            let idle = try await client.call("status")
            #expect(idle.result?["sensor"]?["status"]?.string == "stopped", "\(idle)")
            #expect(idle.result?["sensor"]?["device"]?.string == fixture.sysname, "\(idle)")
            #expect(idle.result?["sensor"]?["samples_read"]?.integer == 0, "\(idle)")
            #expect(!Self.holdsOpen(pid, terminal), "the node is closed while nobody generates")

            _ = try await client.call("begin")
            let started = try await client.nextEvent(timeout: .seconds(10), "the sensor event")
            #expect(started.event == "sensor" && started.state?["sensor"]?.string == "active", "\(started)")
            #expect(Self.holdsOpen(pid, terminal), "the node is open while generating")
            let status = try await client.call("status")
            let sensor = status.result?["sensor"]
            #expect(sensor?["mode"]?.string == "evdev", "\(status)")
            #expect(sensor?["device"]?.string == fixture.sysname, "\(status)")
            #expect(sensor?["driver"]?.string == fixture.name, "\(status)")
            #expect(
                sensor?["matrix_source"]?.string == (matrix == nil ? "identity" : "udev ACCEL_MOUNT_MATRIX"),
                "\(status)"
            )
            // lis3lv02d reports milli-g: 9.80665 m/s² per 1000 counts.
            #expect(sensor?["scale"]?.array?.first?.double.map { abs($0 - 0.00980665) < 1e-9 } == true, "\(status)")

            try await fixture.hold(.normal, on: testbed)
            let normal = try await client.nextChange(timeout: .seconds(10), "the change to normal")
            #expect(normal.first?.state?["device"]?.string == "landscape-left", "\(normal)")
            try await fixture.hold(.leftUp, on: testbed)
            let turned = try await client.nextChange(timeout: .seconds(10), "the change to left-up")
            #expect(turned.map(\.event) == ["device", "interface"], "\(turned)")
            #expect(turned.first?.state?["device"]?.string == "portrait", "\(turned)")
            #expect(turned.last?.state?["interface"]?.string == "portrait", "\(turned)")
            try await fixture.hold(.rightUp, on: testbed)
            let back = try await client.nextChange(timeout: .seconds(10), "the change to right-up")
            #expect(back.first?.state?["device"]?.string == "portrait-upside-down", "\(back)")

            // The last client ends: the node is closed, and nothing more is read.
            _ = try await client.call("end")
            #expect(await daemon.process.waitUntil("the node is closed") { !Self.holdsOpen(pid, terminal) })
            let read = try await client.call("status").result?["sensor"]?["samples_read"]?.integer ?? -1
            try await fixture.hold(.normal, seconds: 0.2, on: testbed)
            try await Task.sleep(for: .milliseconds(300))
            let after = try await client.call("status")
            #expect(after.result?["sensor"]?["status"]?.string == "stopped", "\(after)")
            #expect(after.result?["sensor"]?["samples_read"]?.integer == read, "nothing read while stopped: \(after)")
            #expect(await daemon.stop() == .exited(0))
        }

        /// An IIO display accelerometer wins: the input one's node is never opened.
        @Test func anIIOAccelerometerIsPreferred() async throws {
            let input = InputAccelerometerFixture()
            let iio = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(iio.description)
            try input.add(to: testbed)
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox())
            let client = try daemon.connect()
            _ = try await client.call("begin")
            _ = try await client.nextEvent()
            await daemon.waitForBufferEnable("1", iio)
            let status = try await client.call("status")
            #expect(status.result?["sensor"]?["mode"]?.string == "buffer", "\(status)")
            #expect(status.result?["sensor"]?["driver"]?.string == iio.name, "\(status)")
            #expect(!Self.holdsOpen(daemon.process.pid, try Self.terminal(of: input, in: testbed)))
            var feed = AccelerometerFeed(fixture: iio, testbed: testbed)
            try feed.hold(.leftUp)
            let change = try await client.nextChange()
            #expect(change.first?.state?["device"]?.string == "portrait", "\(change)")
            #expect(await daemon.stop() == .exited(0))
        }

        /// An IIO accelerometer plugged in while the input one is read takes over at once, and the input one comes
        /// back when it goes: the sensor stays `active` throughout (no `sensor` event), only the mode changes.
        @Test func anIIOAccelerometerPluggedInTakesOverAndHandsBack() async throws {
            let input = InputAccelerometerFixture()
            let testbed = Testbed()
            try input.add(to: testbed)
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox())
            let client = try daemon.connect()
            let terminal = try Self.terminal(of: input, in: testbed)
            let pid = daemon.process.pid
            _ = try await client.call("begin")
            _ = try await client.nextEvent(timeout: .seconds(10), "the sensor event")
            try await input.hold(.leftUp, on: testbed)
            let portrait = try await client.nextChange(timeout: .seconds(10), "the change to left-up")
            #expect(portrait.first?.state?["device"]?.string == "portrait", "\(portrait)")
            #expect(await daemon.process.waitUntil("its udev monitors listen") { testbed.monitorCount >= 4 })

            let iio = AccelerometerFixture()
            try testbed.add(iio.description, announce: true)
            await daemon.waitForBufferEnable("1", iio)
            #expect(await daemon.process.waitUntil("the input node is closed") { !Self.holdsOpen(pid, terminal) })
            let status = try await client.call("status")
            #expect(status.result?["sensor"]?["mode"]?.string == "buffer", "\(status)")
            #expect(status.result?["sensor"]?["status"]?.string == "active", "\(status)")
            var feed = AccelerometerFeed(fixture: iio, testbed: testbed)
            try feed.hold(.bottomUp)
            let upsideDown = try await client.nextChange(timeout: .seconds(10), "the change to bottom-up")
            #expect(upsideDown.first?.state?["device"]?.string == "landscape-right", "\(upsideDown)")

            try testbed.removeDevice(iio.syspath, announce: true)
            #expect(await daemon.process.waitUntil("the input node is open again") { Self.holdsOpen(pid, terminal) })
            let back = try await client.call("status")
            #expect(back.result?["sensor"]?["mode"]?.string == "evdev", "\(back)")
            #expect(back.result?["sensor"]?["status"]?.string == "active", "\(back)")
            try await input.hold(.rightUp, on: testbed)
            let turned = try await client.nextChange(timeout: .seconds(10), "the change to right-up")
            #expect(turned.first?.state?["device"]?.string == "portrait-upside-down", "\(turned)")
            let events = client.log.filter(\.isEvent)
            #expect(events.filter { $0.event == "sensor" }.count == 1, "only the first sensor event: \(events)")
            #expect(await daemon.stop() == .exited(0))
        }

        /// Plugged in while someone generates and there is no IIO accelerometer: `absent` → `active`; removed:
        /// `active` → `absent`.
        @Test func anInputAccelerometerFollowsHotplug() async throws {
            let testbed = Testbed()
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox())
            let client = try daemon.connect()
            let begun = try await client.call("begin")
            #expect(begun.state?["sensor"]?.string == "absent", "\(begun)")
            // Four monitors: the IIO display and base accelerometers, the input accelerometer, the switches.
            #expect(await daemon.process.waitUntil("its udev monitors listen") { testbed.monitorCount >= 4 })
            let fixture = InputAccelerometerFixture()
            try fixture.add(to: testbed, announce: true)
            let active = try await client.nextEvent(timeout: .seconds(10), "the sensor event on hotplug")
            #expect(active.previous == "absent" && active.state?["sensor"]?.string == "active", "\(active)")
            try await fixture.hold(.leftUp, on: testbed)
            let change = try await client.nextChange()
            #expect(change.first?.state?["device"]?.string == "portrait", "\(change)")

            try testbed.removeDevice(fixture.syspath, announce: true)
            let gone = try await client.events(until: "the sensor is absent") { $0.event == "sensor" }
            #expect(gone.last?.state?["sensor"]?.string == "absent", "\(gone)")
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
