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

@testable import IIOSensor

/// The phases of the accelerometer sensors as a value: the statuses their owner hears, the retry policy, the settle
/// delay after a hotplug event, and the order of what the owner does. Time is the test's own: it moves only when a
/// test moves it, to the armed timer's time, at once.
@Suite struct SensorPhasesTests {
    typealias Phases = SensorPhases<String>

    /// The part of ``SensorShell`` that does what the phases say, on a virtual clock: the device's openings are
    /// scripted (the last one repeated), the one timer is a time, and what the delegate hears is written down.
    final class VirtualShell {
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
        /// The last outcome noted, as the shell keeps it for diagnostics.
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
        let shell = VirtualShell([.failed(Self.busy), .failed(Self.busy), .capturing("capture")])
        shell.start()
        #expect(shell.phases.status == .failed)
        #expect(shell.lastError == "\(Self.busy)")
        // Each retry is the timer, a second after the failure.
        shell.runTimers(within: 30) { shell.attempts.count == 3 }
        #expect(shell.attempts == [0, 1, 2])
        #expect(shell.phases.status == .active)
        #expect(shell.changes == ["stopped→failed", "failed→active"], "a failure said once, however often retried")
        shell.stop()
        shell.stop()
        #expect(shell.stoppedCaptures == ["capture"], "the capture is put back once")
        #expect(shell.changes.last == "active→stopped")
    }

    @Test func aFailedSensorStoppedAndStartedAgainIsTriedAtTheRetryPaceNotAtOnce() throws {
        // As an owner that stops a failed sensor and starts it again as soon as it may (the virtual tablet-mode
        // switch's claim on a base accelerometer that is there but cannot be read): each failure's retry keeps its
        // time across the stop, the failures in a row are counted on, and a stopped sensor whose retry is due tells
        // its owner, as of a discovery.
        let shell = VirtualShell([.failed(Self.busy)])
        shell.start()
        shell.stop()
        shell.start()
        #expect(shell.phases.status == .failed, "started again before its retry is due: failed, still waiting")
        #expect(shell.attempts.count == 1, "not tried again at once")
        shell.stop()
        #expect(shell.phases.awaitsRetry && shell.phases.status == .stopped)
        while shell.attempts.count < 5 {
            let heard = shell.discoveries
            shell.runTimers(within: 30) { shell.discoveries > heard }
            try #require(shell.discoveries > heard, "the retry came due after \(shell.attempts.count) attempts")
            #expect(!shell.phases.awaitsRetry)
            shell.start()
            #expect(shell.phases.status == .failed)
            shell.stop()
        }
        let gaps = zip(shell.attempts.dropFirst(), shell.attempts).map { $0 - $1 }
        #expect(gaps.count == 4 && gaps.allSatisfy { $0 >= 1 }, "a second after each of the first four: \(gaps)")
        // After the fifth failure in a row, ten seconds: nothing within two.
        shell.start()
        shell.advance(by: 2)
        #expect(shell.attempts.count == 5 && shell.discoveries == 4, "attempts: \(shell.attempts)")
        shell.stop()
        #expect(shell.changes == Array(repeating: ["stopped→failed", "failed→stopped"], count: 7).flatMap { $0 })
        // And the tenth second: the retry is due.
        shell.runTimers(within: 8) { shell.discoveries == 5 }
        #expect(shell.discoveries == 5 && shell.now - shell.attempts[4] == 10)
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
        let shell = VirtualShell([.absent(reason: "no accelerometer found"), .capturing("capture")])
        shell.start()
        #expect(shell.phases.status == .absent && shell.lastError == "no accelerometer found")
        shell.deviceAppeared()
        shell.advance(by: 0.05)
        // A later event puts the look off: one look, a tenth of a second after the last event.
        shell.deviceAppeared()
        shell.advance(by: 0.08)
        #expect(shell.attempts.count == 1)
        shell.advance(by: 0.1)
        #expect(shell.attempts.count == 2 && shell.phases.status == .active)
        #expect(abs(shell.attempts[1] - 0.15) < 1e-9)
        // Capturing or stopped, a sensor does not look on a hotplug event.
        shell.deviceAppeared()
        shell.stop()
        shell.deviceAppeared()
        shell.advance(by: 1)
        #expect(shell.attempts.count == 2)
        #expect(shell.changes == ["stopped→absent", "absent→active", "active→stopped"])
    }

    @Test func theDeviceInUseRemovedMakesAWantedSensorAbsentAndIsForgottenByAStoppedOne() {
        let shell = VirtualShell([.capturing("capture"), .failed(Self.busy)])
        shell.start()
        shell.deviceRemoved()
        #expect(shell.phases.status == .absent && shell.stoppedCaptures == ["capture"])
        #expect(shell.lastError?.contains("udev remove") == true)
        shell.stop()
        #expect(shell.forgotten == 1, "an absent sensor stopped forgets its device")
        shell.start()
        shell.stop()
        #expect(shell.phases.awaitsRetry)
        // Stopped while failed: the removal ends the wait for the retry, and a start tries at once.
        shell.deviceRemoved()
        #expect(!shell.phases.awaitsRetry && shell.timer == nil && shell.discoveries == 1 && shell.forgotten == 2)
        shell.start()
        #expect(shell.attempts == [0, 0, 0])
        #expect(
            shell.changes == [
                "stopped→active", "active→absent", "absent→stopped", "stopped→failed", "failed→stopped",
                "stopped→failed",
            ]
        )
    }

    @Test func aClosedSensorDoesNothingMore() {
        let shell = VirtualShell([.capturing("capture")])
        shell.start()
        shell.close()
        #expect(shell.stoppedCaptures == ["capture"] && shell.timer == nil)
        shell.start()
        shell.stop()
        shell.captureFailed(Self.busy)
        shell.deviceRemoved()
        shell.deviceAppeared()
        #expect(shell.phases.reopen().isEmpty)
        #expect(shell.phases.status == .stopped && !shell.phases.isStopped)
        #expect(shell.attempts.count == 1 && shell.changes == ["stopped→active"] && shell.discoveries == 0)
    }
}
