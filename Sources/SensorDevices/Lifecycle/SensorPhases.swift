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

/// The phases of an accelerometer sensor as a value: each event moves it to its next phase and returns what its owner
/// (``SensorLifecycle``) then does, in order: stop the capture, arm or cancel the one timer, open the device, note an
/// outcome, tell the delegate. Nothing is called out to while a transition is made, so whatever the delegate does when
/// it hears of a change (stop the sensor, start it) meets a finished phase. It holds no source, reads no clock (each
/// event that needs the time is given it) and makes no system call; its tests run on a clock of their own.
///
/// The capturing phase holds the capture (`Capturing`), handed back to the owner to stop when the phase is left. Only
/// one timer is armed at a time, and the phase says what it is for: the retry in `failed`; in `stopped`, after a
/// failure, the time that retry is due (a start sooner only waits for it); in `absent`, the settle delay after a
/// hotplug event.
struct SensorPhases<Capturing> {
    /// A phase of the sensor.
    enum Phase {
        /// Not wanted: nobody generating. Stopped while failed, it waits for that failure's retry (`awaitsRetry`),
        /// and its owner hears when it is due, as a discovery.
        case stopped(awaitsRetry: Bool)
        /// Wanted, but there is no device; `settling`: a hotplug event came, and the device is looked at again once it
        /// settled.
        case absent(settling: Bool)
        /// Capturing.
        case capturing(Capturing)
        /// Wanted, but the device could not be read; the timer tries again.
        case failed
        /// Closed by its owner: stopped for good, it tells its delegate nothing any more.
        case closed
    }

    /// What the owner does after a transition, in the order given.
    enum Action {
        /// Stops the capture of the phase left, which puts its device back.
        case stopCapture(Capturing)
        /// Forgets the device last known: it was not there when the sensor stopped.
        case forgetDevice
        /// Arms the one timer at `time` (the loop's clock), replacing the one armed; when it fires, the owner tells
        /// ``SensorPhases/timerFired()``.
        case armTimer(at: Double)
        /// Cancels the timer armed, if any.
        case cancelTimer
        /// Opens the device and tells how it ended: ``SensorPhases/opened(_:now:)``.
        case open
        /// No device was found; why, for the log and the last error.
        case noteAbsence(reason: String)
        /// The device went away while it was opened or read.
        case noteGone(SensorError)
        /// The device could not be opened or read; it is tried again in `retryIn` seconds.
        case noteFailure(SensorError, retryIn: Double)
        /// Tells the delegate that the status changed.
        case reportStatus(from: SensorState, to: SensorState)
        /// Tells the delegate of a discovery: the device known while stopped is gone, or a retry is due.
        case reportDiscovery
    }

    /// A device's attributes and node appear with its uevent, or just after: the time to wait before a look.
    static var settleDelay: Double { 0.1 }

    /// The one retry policy: soon, then less often. The seconds before the retry after `failures` failures in a
    /// row: 1 for the first four, then 10.
    static func retryDelay(afterFailures failures: Int) -> Double {
        failures < 5 ? 1.0 : 10.0
    }

    /// The phase now.
    private(set) var phase = Phase.stopped(awaitsRetry: false)
    /// The pace asked for last; every capture starts at the full pace.
    var pace = SensorPace.full
    /// Failures in a row, until a usable reading or an absence; a stop and a start do not end the row.
    private var consecutiveFailures = 0
    /// When the device may be tried again after the last failure (the loop's clock); nil once it captured or was
    /// found absent. A stop keeps it: a sensor started again sooner waits for it.
    private var retryAt: Double?

    /// The status the phase means (a closed sensor is stopped).
    var status: SensorState {
        switch phase {
        case .stopped, .closed: .stopped
        case .absent: .absent
        case .capturing: .active
        case .failed: .failed
        }
    }

    /// Whether the sensor is wanted: absent, capturing or failed.
    var isWanted: Bool {
        switch phase {
        case .stopped, .closed: false
        case .absent, .capturing, .failed: true
        }
    }

    /// Whether the sensor is stopped (and not closed).
    var isStopped: Bool {
        if case .stopped = phase { return true }
        return false
    }

    /// Whether the sensor, stopped while failed, waits for that failure's retry: started sooner, it would only wait in
    /// `failed`.
    var awaitsRetry: Bool {
        if case .stopped(let awaitsRetry) = phase { return awaitsRetry }
        return false
    }

    /// What the capturing phase holds; nil in any other.
    var capturing: Capturing? {
        guard case .capturing(let capturing) = phase else { return nil }
        return capturing
    }

    /// The sensor is wanted: the device is opened, unless it is not stopped (or closed), or stopped while failed
    /// before that failure's retry is due: it then waits in `failed` (an owner that stops a failing sensor and starts
    /// it again would make it try at its own pace, not the retry policy's).
    mutating func start(now: Double) -> [Action] {
        guard isStopped else { return [] }
        if let retryAt, retryAt > now {
            phase = .failed
            return [.armTimer(at: retryAt), .reportStatus(from: .stopped, to: .failed)]
        }
        pace = .full
        return [.open]
    }

    /// The sensor is no longer wanted: the capture is stopped. An absent sensor forgets the device it last knew (it
    /// was not there, so a stopped sensor names none, and its owner is not told of a device that would make it start
    /// the sensor again at once, only to find it absent again). A failed sensor keeps its retry's time, and its owner
    /// hears when it is due (until then it ``awaitsRetry``).
    mutating func stop(now: Double) -> [Action] {
        var actions: [Action] = []
        switch phase {
        case .closed: return []
        case .absent: actions.append(.forgetDevice)
        case .capturing(let capturing): actions.append(.stopCapture(capturing))
        case .stopped, .failed: break
        }
        let previous = status
        pace = .full
        if let retryAt, retryAt > now {
            phase = .stopped(awaitsRetry: true)
            actions.append(.armTimer(at: retryAt))
        } else {
            phase = .stopped(awaitsRetry: false)
            actions.append(.cancelTimer)
        }
        if previous != .stopped { actions.append(.reportStatus(from: previous, to: .stopped)) }
        return actions
    }

    /// Stopped for good: the capture is stopped, and the delegate hears nothing.
    mutating func close() -> [Action] {
        var actions: [Action] = []
        if case .capturing(let capturing) = phase { actions.append(.stopCapture(capturing)) }
        pace = .full
        phase = .closed
        actions.append(.cancelTimer)
        return actions
    }

    /// The device is opened afresh (a sensor that captures it another way, or whose device changed): the capture is
    /// stopped first. The phase stays until ``opened(_:now:)`` says how the attempt ended. A closed sensor opens
    /// nothing.
    mutating func reopen() -> [Action] {
        var actions: [Action] = []
        switch phase {
        case .closed: return []
        case .capturing(let capturing): actions.append(.stopCapture(capturing))
        case .stopped, .absent, .failed: break
        }
        pace = .full
        actions.append(.open)
        return actions
    }

    /// An attempt to open the device ended as `opening`, at `now`: the phase it ends in. A failure is retried after
    /// ``retryDelay(afterFailures:)``; an absence, or a device gone, ends the row of failures.
    mutating func opened(_ opening: SensorOpening<Capturing>, now: Double) -> [Action] {
        let previous = status
        var actions: [Action]
        switch opening {
        case .capturing(let capturing):
            retryAt = nil
            phase = .capturing(capturing)
            actions = [.cancelTimer]
        case .absent(let reason):
            (retryAt, consecutiveFailures) = (nil, 0)
            phase = .absent(settling: false)
            actions = [.noteAbsence(reason: reason), .cancelTimer]
        case .gone(let error):
            (retryAt, consecutiveFailures) = (nil, 0)
            phase = .absent(settling: false)
            actions = [.noteGone(error), .cancelTimer]
        case .failed(let error):
            consecutiveFailures += 1
            let delay = Self.retryDelay(afterFailures: consecutiveFailures)
            let due = now + delay
            retryAt = due
            phase = .failed
            actions = [.noteFailure(error, retryIn: delay), .armTimer(at: due)]
        }
        if status != previous { actions.append(.reportStatus(from: previous, to: status)) }
        return actions
    }

    /// The capture of a wanted sensor ended with `error`: a device gone makes it absent, another error failed
    /// (retried). A sensor that is not wanted ignores it.
    mutating func captureFailed(_ error: SensorError, now: Double) -> [Action] {
        guard isWanted else { return [] }
        var actions: [Action] = []
        if case .capturing(let capturing) = phase { actions.append(.stopCapture(capturing)) }
        pace = .full
        actions += opened(error.isDeviceGone ? .gone(error) : .failed(error), now: now)
        return actions
    }

    /// A usable reading came: the next failure is retried after a second again.
    mutating func delivered() {
        consecutiveFailures = 0
    }

    /// The timer armed last fired: a failed sensor tries again, an absent one looks once its device settled, and a
    /// stopped one tells its owner that its retry is due.
    mutating func timerFired() -> [Action] {
        switch phase {
        case .failed, .absent(settling: true):
            pace = .full
            return [.open]
        case .stopped(awaitsRetry: true):
            phase = .stopped(awaitsRetry: false)
            return [.cancelTimer, .reportDiscovery]
        case .stopped, .absent, .capturing, .closed:
            return []
        }
    }

    /// udev removed the device in use, `sysname`: a wanted sensor is absent, a stopped one forgets it (and its
    /// failures) and tells its owner.
    mutating func deviceRemoved(_ sysname: String, now: Double) -> [Action] {
        switch phase {
        case .absent, .capturing, .failed:
            return captureFailed(SensorError(.deviceGone, operation: "udev remove", device: sysname), now: now)
        case .stopped:
            (retryAt, consecutiveFailures) = (nil, 0)
            phase = .stopped(awaitsRetry: false)
            return [.forgetDevice, .cancelTimer, .reportDiscovery]
        case .closed:
            return []
        }
    }

    /// A device that can be the sensor's appeared or changed, at `now`: an absent sensor looks at it once it settled
    /// (``settleDelay``; a later event puts the look off again).
    mutating func deviceAppeared(now: Double) -> [Action] {
        guard case .absent = phase else { return [] }
        phase = .absent(settling: true)
        return [.armTimer(at: now + Self.settleDelay)]
    }
}

extension SensorPhases.Action: Equatable where Capturing: Equatable {}
