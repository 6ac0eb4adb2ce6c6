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

@testable import IIOSensor

/// The one lifecycle of the accelerometer sensors: the statuses their owner hears, retries of a device that cannot
/// be opened, a capture put back exactly once, and a closed sensor that says nothing more. The sensor is a scripted
/// driver (its openings given in advance); the loop and its timers are real.
@Suite struct SensorShellTests {
    /// A capture that counts how often it was stopped.
    final class ScriptedCapture: SensorCapturing {
        var stops = 0
        func stop() { stops += 1 }
    }

    /// A sensor whose attempts end as scripted, the last one repeated.
    final class ScriptedSensor: SensorDriver {
        var openings: [SensorOpening<ScriptedCapture>]
        var attempts = 0
        /// The loop's clock at each attempt, when a clock is given.
        var clock: (() -> Double)?
        var times: [Double] = []
        init(_ openings: [SensorOpening<ScriptedCapture>]) { self.openings = openings }
        func open() -> SensorOpening<ScriptedCapture> {
            attempts += 1
            if let clock { times.append(clock()) }
            return openings.count > 1 ? openings.removeFirst() : openings[0]
        }
        func refreshDiscovery() {}
    }

    /// The owner: every change of status it hears, and how often it heard of a discovery.
    final class Owner: AccelerometerSensorDelegate {
        var changes: [String] = []
        var discoveries = 0
        func accelerometerDiscoveryChanged(at location: SensorLocation) {
            discoveries += 1
        }
        func accelerometer(
            at location: SensorLocation,
            changedStatusFrom previous: SensorState,
            to current: SensorState
        ) {
            changes.append("\(previous)→\(current)")
        }
    }

    static let busy = SensorError(.call, operation: "open", device: "iio:device0")

    /// A shell on a real loop with `sensor` attached; the sensor is returned too, for the shell holds it weakly.
    static func shell(
        _ openings: [SensorOpening<ScriptedCapture>],
        loop: EventLoop,
        owner: Owner
    ) -> (SensorShell<ScriptedSensor>, ScriptedSensor) {
        let sensor = ScriptedSensor(openings)
        let shell = SensorShell<ScriptedSensor>(
            .accelerometer,
            loop: loop,
            logger: Logger(label: "test"),
            location: .display,
            delegate: owner
        )
        shell.attach(sensor, subsystem: "iio")
        return (shell, sensor)
    }

    @Test(arguments: [(1, 1.0), (2, 1), (4, 1), (5, 10), (6, 10), (50, 10)])
    func retriesComeSoonThenLessOften(failures: Int, seconds: Double) {
        #expect(SensorShell<ScriptedSensor>.retryDelay(afterFailures: failures) == seconds)
    }

    @Test func aDeviceThatCannotBeOpenedIsRetriedUntilItCaptures() throws {
        let loop = try EventLoop()
        let owner = Owner()
        let capture = ScriptedCapture()
        let (shell, sensor) = Self.shell(
            [.failed(Self.busy), .failed(Self.busy), .capturing(capture)],
            loop: loop,
            owner: owner
        )
        shell.start()
        #expect(shell.status == .failed)
        #expect(shell.lastError == "\(Self.busy)")
        // Each retry is a timer of the loop, a second after the failure.
        while sensor.attempts < 3 { _ = try loop.runOnce(timeout: 5) }
        #expect(shell.status == .active)
        #expect(owner.changes == ["stopped→failed", "failed→active"], "a failure said once, however often retried")
        shell.stop()
        shell.stop()
        #expect(capture.stops == 1, "the capture is put back once")
        #expect(owner.changes.last == "active→stopped")
    }

    @Test func aClosedSensorSaysNothingMoreAndStartsNoMore() throws {
        let loop = try EventLoop()
        let owner = Owner()
        let capture = ScriptedCapture()
        let (shell, sensor) = Self.shell([.capturing(capture)], loop: loop, owner: owner)
        shell.start()
        #expect(owner.changes == ["stopped→active"])
        shell.close()
        #expect(capture.stops == 1)
        shell.start()
        shell.stop()
        shell.captureFailed(Self.busy)
        #expect(shell.status == .stopped)
        #expect(sensor.attempts == 1)
        #expect(owner.changes == ["stopped→active"], "nothing after the close")
    }

    @Test func aCaptureThatEndsIsAbsentWhenTheDeviceIsGoneElseRetried() throws {
        let loop = try EventLoop()
        let owner = Owner()
        let capture = ScriptedCapture()
        let (shell, sensor) = Self.shell([.capturing(capture)], loop: loop, owner: owner)
        shell.start()
        shell.captureFailed(SensorError(.deviceGone, operation: "read", device: "iio:device0"))
        #expect(shell.status == .absent)
        #expect(capture.stops == 1)
        shell.stop()
        shell.captureFailed(Self.busy)
        #expect(shell.status == .stopped, "a stopped sensor ignores a late failure")
        shell.start()
        shell.captureFailed(Self.busy)
        #expect(shell.status == .failed)
        #expect(capture.stops == 2)
        #expect(sensor.attempts == 2)
        #expect(
            owner.changes == ["stopped→active", "active→absent", "absent→stopped", "stopped→active", "active→failed"]
        )
    }

    @Test func anAbsentSensorStoppedNamesNoDeviceAndACapturingOneKeepsItsOwn() throws {
        let loop = try EventLoop()
        let owner = Owner()
        let (shell, sensor) = Self.shell(
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
        shell.accelerometer = device
        shell.start()
        shell.stop()
        #expect(shell.accelerometer?.id == device.id, "a device read until the stop is still the one known")
        // The device vanished with no remove event: the next start finds nothing, and its owner, hearing the
        // stop, must not be told of a device that would make it start the sensor again at once.
        shell.start()
        #expect(shell.status == .absent)
        shell.stop()
        #expect(shell.accelerometer == nil)
        #expect(sensor.attempts == 2)
        #expect(owner.changes == ["stopped→active", "active→stopped", "stopped→absent", "absent→stopped"])
    }

    @Test func aFailedSensorStoppedAndStartedAgainIsTriedAtTheRetryPaceNotAtOnce() throws {
        // As an owner that stops a failed sensor and starts it again as soon as it may (the virtual tablet-mode
        // switch's claim on a base accelerometer that is there but cannot be read): each failure's retry keeps its
        // time across the stop, the failures in a row are counted on, and a stopped sensor whose retry is due tells
        // its owner, as of a discovery.
        let loop = try EventLoop()
        let owner = Owner()
        let (shell, sensor) = Self.shell([.failed(Self.busy)], loop: loop, owner: owner)
        sensor.clock = { loop.now }
        shell.start()
        shell.stop()
        shell.start()
        #expect(shell.status == .failed, "started again before its retry is due: failed, still waiting")
        #expect(sensor.attempts == 1, "not tried again at once")
        shell.stop()
        #expect(shell.awaitsRetry && shell.status == .stopped)
        while sensor.attempts < 5 {
            let heard = owner.discoveries
            let deadline = ContinuousClock.now + .seconds(30)
            while owner.discoveries == heard, ContinuousClock.now < deadline { _ = try loop.runOnce(timeout: 1) }
            try #require(owner.discoveries > heard, "the retry came due after \(sensor.attempts) attempts")
            #expect(!shell.awaitsRetry)
            shell.start()
            #expect(shell.status == .failed)
            shell.stop()
        }
        let gaps = zip(sensor.times.dropFirst(), sensor.times).map { $0 - $1 }
        #expect(gaps.count == 4 && gaps.allSatisfy { $0 >= 1 }, "a second after each of the first four: \(gaps)")
        // After the fifth failure in a row, ten seconds: nothing within two.
        shell.start()
        let started = ContinuousClock.now
        while ContinuousClock.now - started < .seconds(2) { _ = try loop.runOnce(timeout: 0.5) }
        #expect(sensor.attempts == 5 && owner.discoveries == 4, "attempts: \(sensor.attempts)")
        shell.stop()
        #expect(owner.changes == Array(repeating: ["stopped→failed", "failed→stopped"], count: 7).flatMap { $0 })
    }
}
