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

import EventLoop
import Logging
import OrientationCore
import Testing

@testable import SensorDevices

/// The lifecycle as the owner of the phases (``SensorPhasesTests`` test the phases, their retries and settle delay, on a
/// clock of their own): the statuses its owner hears, the loop's timers armed as the phases ask, a capture put back
/// exactly once, a device forgotten, and a closed sensor that says nothing more. The sensor is a scripted driver (its
/// openings given in advance); the loop and its timers are real.
@Suite struct SensorLifecycleTests {
    /// A capture that counts how often it was stopped.
    final class ScriptedCapture: CapturingPhase {
        var stops = 0
        func stop() { stops += 1 }
    }

    /// A sensor whose attempts end as scripted, the last one repeated.
    final class ScriptedSensor: SensorDriver {
        var openings: [SensorOpening<ScriptedCapture>]
        var attempts = 0
        init(_ openings: [SensorOpening<ScriptedCapture>]) { self.openings = openings }
        func open() -> SensorOpening<ScriptedCapture> {
            attempts += 1
            return openings.count > 1 ? openings.removeFirst() : openings[0]
        }
        func refreshDiscovery() {}
    }

    /// The owner: every change of status it hears, and how often it heard of a discovery.
    final class Owner: AccelerometerSensorDelegate {
        var changes: [String] = []
        var discoveries = 0
        func discoveryChanged(at location: SensorLocation) {
            discoveries += 1
        }
        func statusChanged(
            at location: SensorLocation,
            from previous: SensorState,
            to current: SensorState
        ) {
            changes.append("\(previous)→\(current)")
        }
    }

    static let busy = SensorError(.call, operation: "open", device: "iio:device0")

    /// A lifecycle on a real loop with `sensor` attached; the sensor is returned too, for the lifecycle holds it weakly.
    static func lifecycle(
        _ openings: [SensorOpening<ScriptedCapture>],
        loop: EventLoop,
        owner: Owner
    ) -> (SensorLifecycle<ScriptedSensor>, ScriptedSensor) {
        let sensor = ScriptedSensor(openings)
        let lifecycle = SensorLifecycle<ScriptedSensor>(
            .accelerometer,
            loop: loop,
            logger: Logger(label: "test"),
            location: .display,
            delegate: owner
        )
        lifecycle.attach(sensor, subsystem: "iio")
        return (lifecycle, sensor)
    }

    /// Runs the loop until `done` holds; the bound only ends a test that would hang.
    static func run(_ loop: EventLoop, until done: () -> Bool) throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !done(), ContinuousClock.now < deadline { _ = try loop.runOnce(timeout: 1) }
        try #require(done())
    }

    @Test func theRetryAndTheTimeItIsDueAreTimersOfTheLoop() throws {
        let loop = try EventLoop()
        let owner = Owner()
        let capture = ScriptedCapture()
        let (lifecycle, sensor) = Self.lifecycle(
            [.failed(Self.busy), .failed(Self.busy), .capturing(capture)],
            loop: loop,
            owner: owner
        )
        lifecycle.start()
        #expect(lifecycle.status == .failed)
        #expect(lifecycle.lastError == "\(Self.busy)")
        // The retry: a timer of the loop, a second after the failure.
        try Self.run(loop) { sensor.attempts == 2 }
        #expect(lifecycle.status == .failed)
        #expect(owner.changes == ["stopped→failed"], "a failure said once, however often retried")
        // Stopped before the next retry: the owner hears when it is due, from another timer.
        lifecycle.stop()
        #expect(lifecycle.awaitsRetry)
        try Self.run(loop) { owner.discoveries == 1 }
        #expect(!lifecycle.awaitsRetry)
        lifecycle.start()
        #expect(lifecycle.status == .active && sensor.attempts == 3)
        lifecycle.stop()
        lifecycle.stop()
        #expect(capture.stops == 1, "the capture is put back once")
        #expect(owner.changes == ["stopped→failed", "failed→stopped", "stopped→active", "active→stopped"])
    }

    @Test func aClosedSensorSaysNothingMoreAndStartsNoMore() throws {
        let loop = try EventLoop()
        let owner = Owner()
        let capture = ScriptedCapture()
        let (lifecycle, sensor) = Self.lifecycle([.capturing(capture)], loop: loop, owner: owner)
        lifecycle.start()
        #expect(owner.changes == ["stopped→active"])
        lifecycle.close()
        #expect(capture.stops == 1)
        lifecycle.start()
        lifecycle.stop()
        lifecycle.captureFailed(Self.busy)
        #expect(lifecycle.status == .stopped)
        #expect(sensor.attempts == 1)
        #expect(owner.changes == ["stopped→active"], "nothing after the close")
    }

    @Test func aCaptureThatEndsIsAbsentWhenTheDeviceIsGoneElseRetried() throws {
        let loop = try EventLoop()
        let owner = Owner()
        let capture = ScriptedCapture()
        let (lifecycle, sensor) = Self.lifecycle([.capturing(capture)], loop: loop, owner: owner)
        lifecycle.start()
        lifecycle.captureFailed(SensorError(.deviceGone, operation: "read", device: "iio:device0"))
        #expect(lifecycle.status == .absent)
        #expect(capture.stops == 1)
        lifecycle.stop()
        lifecycle.captureFailed(Self.busy)
        #expect(lifecycle.status == .stopped, "a stopped sensor ignores a late failure")
        lifecycle.start()
        lifecycle.captureFailed(Self.busy)
        #expect(lifecycle.status == .failed)
        #expect(capture.stops == 2)
        #expect(sensor.attempts == 2)
        #expect(
            owner.changes == ["stopped→active", "active→absent", "absent→stopped", "stopped→active", "active→failed"]
        )
    }

    @Test func anAbsentSensorStoppedNamesNoDeviceAndACapturingOneKeepsItsOwn() throws {
        let loop = try EventLoop()
        let owner = Owner()
        let (lifecycle, sensor) = Self.lifecycle(
            [.capturing(ScriptedCapture()), .absent(reason: "no accelerometer found")],
            loop: loop,
            owner: owner
        )
        let device = Accelerometer(
            id: "iio:device1",
            name: "bmc150_accel",
            label: nil,
            syspath: nil,
            location: .base,
            locationSource: "label",
            calibration: Calibration(scale: Vector3(x: 1, y: 1, z: 1)),
            matrixSource: "identity",
            scaleSource: "none",
            canBuffer: false,
            triggerName: nil,
            samplingFrequency: nil,
            availableFrequencies: [],
            hasTimestamp: false,
            warnings: []
        )
        lifecycle.accelerometer = device
        lifecycle.start()
        lifecycle.stop()
        #expect(lifecycle.accelerometer?.id == device.id, "a device read until the stop is still the one known")
        // The device vanished with no remove event: the next start finds nothing, and its owner, hearing the
        // stop, must not be told of a device that would make it start the sensor again at once.
        lifecycle.start()
        #expect(lifecycle.status == .absent)
        lifecycle.stop()
        #expect(lifecycle.accelerometer == nil)
        #expect(sensor.attempts == 2)
        #expect(owner.changes == ["stopped→active", "active→stopped", "stopped→absent", "absent→stopped"])
    }
}
