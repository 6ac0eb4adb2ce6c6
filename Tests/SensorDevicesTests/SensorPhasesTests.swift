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

import OrientationCore
import Testing

@testable import SensorDevices

/// The phases of the accelerometer sensors as a value: the statuses their owner hears, the retry policy, the settle
/// delay after a hotplug event, and the order of what the owner does. Time is the test's own: it moves only when a
/// test moves it, to the armed timer's time, at once.
@Suite struct SensorPhasesTests {
    typealias Phases = SensorPhases<String>

    /// The part of ``SensorLifecycle`` that does what the phases say, on a virtual clock: the device's openings are
    /// scripted (the last one repeated), the one timer is a time, and what the delegate hears is written down.
    final class VirtualLifecycle {
        var phases = Phases()
        var openings: [SensorOpening<String>]
        /// The clock.
        private(set) var now = 0.0
        /// When the armed timer fires; nil when none is armed.
        private(set) var timer: Double?
        /// The clock at each attempt to open the device.
        private(set) var attempts: [Double] = []
        /// The captures stopped, in order.
        private(set) var stoppedCaptures: [String] = []
        /// Every change of status the delegate heard, as "previous→current".
        private(set) var changes: [String] = []
        /// How often the delegate heard of a discovery.
        private(set) var discoveries = 0
        /// How often the device known was forgotten.
        private(set) var forgotten = 0
        /// The last outcome noted, as the lifecycle keeps it for diagnostics.
        private(set) var lastError: String?

        init(_ openings: [SensorOpening<String>]) { self.openings = openings }

        func start() { perform(phases.start(now: now)) }
        func stop() { perform(phases.stop(now: now)) }
        func close() { perform(phases.close()) }
        func captureFailed(_ error: SensorError) { perform(phases.captureFailed(error, now: now)) }
        func deviceRemoved() { perform(phases.deviceRemoved("iio:device0", now: now)) }
        func deviceAppeared() { perform(phases.deviceAppeared(now: now)) }

        /// Moves the clock on by `seconds`, firing the timer at its time whenever it comes due on the way.
        func advance(by seconds: Double) {
            let end = now + seconds
            while let due = timer, due <= end { fire(at: due) }
            now = end
        }

        /// Fires the timer at its time, again and again, until `done` holds or no timer is due within `seconds`.
        func runTimers(within seconds: Double, until done: () -> Bool) {
            let end = now + seconds
            while !done(), let due = timer, due <= end { fire(at: due) }
        }

        private func fire(at due: Double) {
            now = due
            timer = nil
            perform(phases.timerFired())
        }

        private func perform(_ actions: [Phases.Action]) {
            for action in actions {
                switch action {
                case .stopCapture(let capture): stoppedCaptures.append(capture)
                case .forgetDevice: forgotten += 1
                case .armTimer(let time): timer = time
                case .cancelTimer: timer = nil
                case .open:
                    attempts.append(now)
                    let opening = openings.count > 1 ? openings.removeFirst() : openings[0]
                    perform(phases.opened(opening, now: now))
                case .noteAbsence(let reason): lastError = reason
                case .noteGone(let error), .noteFailure(let error, _): lastError = "\(error)"
                case .reportStatus(let previous, let current): changes.append("\(previous)→\(current)")
                case .reportDiscovery: discoveries += 1
                }
            }
        }
    }

    static let busy = SensorError(.call, operation: "open", device: "iio:device0")

    @Test(arguments: [(1, 1.0), (2, 1), (4, 1), (5, 10), (6, 10), (50, 10)])
    func retriesComeSoonThenLessOften(failures: Int, seconds: Double) {
        #expect(Phases.retryDelay(afterFailures: failures) == seconds)
    }

    @Test func theDelegateHearsLastOnceThePhaseIsEntered() {
        var phases = Phases()
        #expect(phases.start(now: 0) == [.open])
        #expect(
            phases.opened(.failed(Self.busy), now: 0)
                == [.noteFailure(Self.busy, retryIn: 1), .armTimer(at: 1), .reportStatus(from: .stopped, to: .failed)]
        )
        #expect(phases.status == .failed)
        #expect(phases.timerFired() == [.open])
        #expect(
            phases.opened(.capturing("capture"), now: 1) == [.cancelTimer, .reportStatus(from: .failed, to: .active)]
        )
        #expect(
            phases.stop(now: 1)
                == [.stopCapture("capture"), .cancelTimer, .reportStatus(from: .active, to: .stopped)]
        )
    }

    @Test func aDeviceThatCannotBeOpenedIsRetriedUntilItCaptures() {
        let lifecycle = VirtualLifecycle([.failed(Self.busy), .failed(Self.busy), .capturing("capture")])
        lifecycle.start()
        #expect(lifecycle.phases.status == .failed)
        #expect(lifecycle.lastError == "\(Self.busy)")
        // Each retry is the timer, a second after the failure.
        lifecycle.runTimers(within: 30) { lifecycle.attempts.count == 3 }
        #expect(lifecycle.attempts == [0, 1, 2])
        #expect(lifecycle.phases.status == .active)
        #expect(lifecycle.changes == ["stopped→failed", "failed→active"], "a failure said once, however often retried")
        lifecycle.stop()
        lifecycle.stop()
        #expect(lifecycle.stoppedCaptures == ["capture"], "the capture is put back once")
        #expect(lifecycle.changes.last == "active→stopped")
    }

    @Test func aFailedSensorStoppedAndStartedAgainIsTriedAtTheRetryPaceNotAtOnce() throws {
        // As an owner that stops a failed sensor and starts it again as soon as it may (the virtual tablet-mode
        // switch's claim on a base accelerometer that is there but cannot be read): each failure's retry keeps its
        // time across the stop, the failures in a row are counted on, and a stopped sensor whose retry is due tells
        // its owner, as of a discovery.
        let lifecycle = VirtualLifecycle([.failed(Self.busy)])
        lifecycle.start()
        lifecycle.stop()
        lifecycle.start()
        #expect(lifecycle.phases.status == .failed, "started again before its retry is due: failed, still waiting")
        #expect(lifecycle.attempts.count == 1, "not tried again at once")
        lifecycle.stop()
        #expect(lifecycle.phases.awaitsRetry && lifecycle.phases.status == .stopped)
        while lifecycle.attempts.count < 5 {
            let heard = lifecycle.discoveries
            lifecycle.runTimers(within: 30) { lifecycle.discoveries > heard }
            try #require(lifecycle.discoveries > heard, "the retry came due after \(lifecycle.attempts.count) attempts")
            #expect(!lifecycle.phases.awaitsRetry)
            lifecycle.start()
            #expect(lifecycle.phases.status == .failed)
            lifecycle.stop()
        }
        let gaps = zip(lifecycle.attempts.dropFirst(), lifecycle.attempts).map { $0 - $1 }
        #expect(gaps.count == 4 && gaps.allSatisfy { $0 >= 1 }, "a second after each of the first four: \(gaps)")
        // After the fifth failure in a row, ten seconds: nothing within two.
        lifecycle.start()
        lifecycle.advance(by: 2)
        #expect(lifecycle.attempts.count == 5 && lifecycle.discoveries == 4, "attempts: \(lifecycle.attempts)")
        lifecycle.stop()
        #expect(lifecycle.changes == Array(repeating: ["stopped→failed", "failed→stopped"], count: 7).flatMap { $0 })
        // And the tenth second: the retry is due.
        lifecycle.runTimers(within: 8) { lifecycle.discoveries == 5 }
        #expect(lifecycle.discoveries == 5 && lifecycle.now - lifecycle.attempts[4] == 10)
    }

    @Test func aUsableReadingOrAnAbsenceEndsTheRowOfFailures() {
        var phases = Phases()
        // Five failures in a row, each started again after its retry was due.
        for start in stride(from: 0.0, to: 50, by: 10) {
            _ = phases.start(now: start)
            _ = phases.opened(.failed(Self.busy), now: start)
            _ = phases.stop(now: start + 5)
        }
        _ = phases.start(now: 50)
        #expect(phases.opened(.failed(Self.busy), now: 50).contains(.armTimer(at: 60)), "the sixth: ten seconds")
        _ = phases.timerFired()
        _ = phases.opened(.capturing("capture"), now: 60)
        phases.delivered()
        #expect(phases.captureFailed(Self.busy, now: 70).contains(.armTimer(at: 71)), "after a reading: a second")
        _ = phases.timerFired()
        _ = phases.opened(.failed(Self.busy), now: 71)
        _ = phases.timerFired()
        #expect(phases.opened(.absent(reason: "none"), now: 72).contains(.noteAbsence(reason: "none")))
        _ = phases.deviceAppeared(now: 80)
        _ = phases.timerFired()
        #expect(phases.opened(.failed(Self.busy), now: 81).contains(.armTimer(at: 82)), "after an absence: a second")
    }

    @Test func anAbsentSensorLooksAgainOnceAHotplugEventSettled() {
        let lifecycle = VirtualLifecycle([.absent(reason: "no accelerometer found"), .capturing("capture")])
        lifecycle.start()
        #expect(lifecycle.phases.status == .absent && lifecycle.lastError == "no accelerometer found")
        lifecycle.deviceAppeared()
        lifecycle.advance(by: 0.05)
        // A later event puts the look off: one look, a tenth of a second after the last event.
        lifecycle.deviceAppeared()
        lifecycle.advance(by: 0.08)
        #expect(lifecycle.attempts.count == 1)
        lifecycle.advance(by: 0.1)
        #expect(lifecycle.attempts.count == 2 && lifecycle.phases.status == .active)
        #expect(abs(lifecycle.attempts[1] - 0.15) < 1e-9)
        // Capturing or stopped, a sensor does not look on a hotplug event.
        lifecycle.deviceAppeared()
        lifecycle.stop()
        lifecycle.deviceAppeared()
        lifecycle.advance(by: 1)
        #expect(lifecycle.attempts.count == 2)
        #expect(lifecycle.changes == ["stopped→absent", "absent→active", "active→stopped"])
    }

    @Test func theDeviceInUseRemovedMakesAWantedSensorAbsentAndIsForgottenByAStoppedOne() {
        let lifecycle = VirtualLifecycle([.capturing("capture"), .failed(Self.busy)])
        lifecycle.start()
        lifecycle.deviceRemoved()
        #expect(lifecycle.phases.status == .absent && lifecycle.stoppedCaptures == ["capture"])
        #expect(lifecycle.lastError?.contains("udev remove") == true)
        lifecycle.stop()
        #expect(lifecycle.forgotten == 1, "an absent sensor stopped forgets its device")
        lifecycle.start()
        lifecycle.stop()
        #expect(lifecycle.phases.awaitsRetry)
        // Stopped while failed: the removal ends the wait for the retry, and a start tries at once.
        lifecycle.deviceRemoved()
        #expect(
            !lifecycle.phases.awaitsRetry && lifecycle.timer == nil && lifecycle.discoveries == 1
                && lifecycle.forgotten == 2
        )
        lifecycle.start()
        #expect(lifecycle.attempts == [0, 0, 0])
        #expect(
            lifecycle.changes == [
                "stopped→active", "active→absent", "absent→stopped", "stopped→failed", "failed→stopped",
                "stopped→failed",
            ]
        )
    }

    @Test func aClosedSensorDoesNothingMore() {
        let lifecycle = VirtualLifecycle([.capturing("capture")])
        lifecycle.start()
        lifecycle.close()
        #expect(lifecycle.stoppedCaptures == ["capture"] && lifecycle.timer == nil)
        lifecycle.start()
        lifecycle.stop()
        lifecycle.captureFailed(Self.busy)
        lifecycle.deviceRemoved()
        lifecycle.deviceAppeared()
        #expect(lifecycle.phases.reopen().isEmpty)
        #expect(lifecycle.phases.status == .stopped && !lifecycle.phases.isStopped)
        #expect(lifecycle.attempts.count == 1 && lifecycle.changes == ["stopped→active"] && lifecycle.discoveries == 0)
    }
}
