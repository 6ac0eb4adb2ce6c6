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
import OrientationCore

/// Where an accelerometer sensor is in its life, and what its delegate hears of it: the state machine that
/// ``AccelerometerSensor`` and ``InputAccelerometerSensor`` share, each with its own kind of capture (`Capturing`).
///
/// It holds the phase, maps it to the ``SensorState`` that the delegate and the clients see, tells the delegate of
/// every change of that status (``enter(_:)``), and counts the failures in a row that space out the retries
/// (``retryDelay()``). What differs between the two sensors stays with each of them: finding the device, starting and
/// tearing down its capture, following its hotplug events.
final class SensorLifecycle<Capturing> {
    /// A phase of the sensor.
    enum Phase {
        /// Not wanted: nobody generating.
        case stopped
        /// Wanted, but there is no accelerometer.
        case absent
        /// Capturing.
        case capturing(Capturing)
        /// Wanted, but capture failed and is retried by the timer.
        case failed(retry: TimerSource?)
        /// Closed by its owner: stopped for good, it tells its delegate nothing any more.
        case closed
    }

    /// The phase now: changed by ``enter(_:)``, ``update(_:)`` and ``close()``.
    private(set) var phase = Phase.stopped
    /// The sensor's location, named in each report to the delegate.
    private let location: SensorLocation
    private unowned let delegate: any AccelerometerSensorDelegate
    private var consecutiveFailures = 0

    /// A stopped sensor's lifecycle, reporting to `delegate` (held unowned, as the sensor holds it) for `location`.
    init(location: SensorLocation, delegate: any AccelerometerSensorDelegate) {
        self.location = location
        self.delegate = delegate
    }

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

    /// Whether the sensor was closed.
    var isClosed: Bool {
        if case .closed = phase { return true }
        return false
    }

    /// Moves to `next` and tells the delegate when the status changes. Not for closing, which tells nothing.
    func enter(_ next: Phase) {
        let previous = status
        phase = next
        let current = status
        guard current != previous else { return }
        delegate.accelerometer(at: location, changedStatusFrom: previous, to: current)
    }

    /// Replaces the capture of a capturing sensor (the hot path: its watch moved on); the status stays active.
    func update(_ capturing: Capturing) {
        guard case .capturing = phase else { return }
        phase = .capturing(capturing)
    }

    /// Closes for good without a word to the delegate.
    func close() {
        phase = .closed
    }

    /// Forgets the failures in a row: at a start, or when a capture delivers again.
    func resetFailures() {
        consecutiveFailures = 0
    }

    /// Counts one more failure in a row; the seconds to wait before the retry: 1 for the first four, then 10.
    func retryDelay() -> Double {
        consecutiveFailures += 1
        return consecutiveFailures < 5 ? 1.0 : 10.0
    }
}
