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

/// How the emulated accelerometer is mounted: the identity, or a matrix from udev's `ACCEL_MOUNT_MATRIX`.
struct DaemonMounting: Sendable, CustomTestStringConvertible {
    /// The hwdb text, or nil for none (identity).
    var matrix: String?
    /// The raw reading that the matrix turns into a corrected one (its inverse, here its transpose).
    var raw: @Sendable (AxisValues<Int64>) -> AxisValues<Int64>

    var testDescription: String { matrix ?? "identity" }

    static let all = [
        DaemonMounting(matrix: nil) { $0 },
        // x' = −y, y' = x; so raw = (y', −x', z').
        DaemonMounting(matrix: "0, -1, 0; 1, 0, 0; 0, 0, 1") { AxisValues(x: $0.y, y: -$0.x, z: $0.z) },
    ]
}

extension EmulatedDeviceTests {
    /// A rotation tour fed to the emulated accelerometer: the `device` and `interface` events of ORIENTATION.md.
    @Suite struct DaemonRotationTests {
        /// One step of the tour: the pose held, the device orientation it gives on a laptop, and the interface
        /// orientation after it (nil: unchanged, no `interface` event).
        struct Step {
            var posture: Posture
            var device: String
            var interface: String?
        }

        static let tour = [
            Step(posture: .normal, device: "landscape-left", interface: "landscape-right"),
            Step(posture: .leftUp, device: "portrait", interface: "portrait"),
            Step(posture: .bottomUp, device: "landscape-right", interface: "landscape-left"),
            Step(posture: .rightUp, device: "portrait-upside-down", interface: "portrait-upside-down"),
            Step(posture: .faceUp, device: "face-up", interface: nil),
            Step(posture: .faceDown, device: "face-down", interface: nil),
            Step(posture: .normal, device: "landscape-left", interface: "landscape-right"),
        ]

        @Test(arguments: DaemonMounting.all)
        func tourGivesDeviceAndInterfaceEventsWithTheLandscapeInversion(mounting: DaemonMounting) async throws {
            var fixture = AccelerometerFixture()
            if let matrix = mounting.matrix { fixture.mountMatrices = [.udev: matrix] }
            let rig = try await GeneratingDaemon(fixture: fixture)
            let (daemon, client) = (rig.daemon, rig.client)

            var feed = rig.feed
            feed.rawReading = mounting.raw
            var device = "unknown"
            var interface = "unknown"
            var all = [rig.started]
            for step in Self.tour {
                try feed.hold(step.posture)
                let change = try await client.nextChange(timeout: .seconds(10), "the change to \(step.posture)")
                all += change
                let expectedNames = step.interface == nil ? ["device"] : ["device", "interface"]
                #expect(change.map(\.event) == expectedNames, "\(step.posture): \(change)")
                let deviceEvent = change.first
                #expect(deviceEvent?.previous == device, "\(step.posture): \(change)")
                #expect(deviceEvent?.state?["device"]?.string == step.device, "\(step.posture): \(change)")
                if let expected = step.interface, let event = change.last {
                    #expect(event.previous == interface, "\(step.posture): \(change)")
                    #expect(event.state?["interface"]?.string == expected, "\(step.posture): \(change)")
                    interface = expected
                }
                // A device event already shows the interface orientation after the change.
                #expect(deviceEvent?.state?["interface"]?.string == interface, "\(step.posture): \(change)")
                for event in change { DaemonContract.expectTransform(event.state) }
                device = step.device
            }
            DaemonContract.expectWellOrdered(all)
            let seqs = all.compactMap(\.seq)
            #expect(Set(seqs).count == Self.tour.count + 1, "one seq per change: \(seqs)")

            // Nothing but these changes came, and the state agrees.
            let state = try await client.call("get")
            #expect(client.inbox.isEmpty, "\(client.inbox)")
            #expect(state.state?["device"]?.string == "landscape-left", "\(state)")
            #expect(state.state?["seq"] == all.last?.state?["seq"], "\(state)")
            #expect(await daemon.stop() == .exited(0))
        }

        /// Each pose straight after the normal one, from a fresh start: the interface table for the four poses.
        @Test(arguments: [
            (Posture.leftUp, "portrait", "portrait", 90),
            (Posture.bottomUp, "landscape-right", "landscape-left", 180),
            (Posture.rightUp, "portrait-upside-down", "portrait-upside-down", 270),
        ])
        func eachPoseHasItsRotation(posture: Posture, device: String, interface: String, rotation: Int) async throws {
            var rig = try await GeneratingDaemon()
            let first = try await rig.turn(to: .normal)
            #expect(first.last?.state?["rotation"]?.integer == 0, "\(first)")
            let change = try await rig.turn(to: posture)
            #expect(change.map(\.event) == ["device", "interface"], "\(change)")
            #expect(change.last?.previous == "landscape-right", "\(change)")
            #expect(change.last?.state?["device"]?.string == device, "\(change)")
            #expect(change.last?.state?["interface"]?.string == interface, "\(change)")
            #expect(change.last?.state?["rotation"]?.integer == rotation, "\(change)")
            DaemonContract.expectTransform(change.last?.state)
            #expect(await rig.daemon.stop() == .exited(0))
        }
    }
}
