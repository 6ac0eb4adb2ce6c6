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
import SensorDevices

/// The calibration on the event loop: the sensors' raw samples into the session (their sink), each step asked, taken
/// or refused in turn, a step that waits too long ended, a sensor gone or failing ending it (their delegate).
final class CalibrationRun: AccelerometerSampleSink, AccelerometerSensorDelegate {
    private let loop: EventLoop
    private let output: CalibrationOutput
    private var session: CalibrationSession?
    private var deadline: TimerSource?
    /// The matrices, once every step was taken.
    private(set) var outcome: CalibrationOutcome?
    /// Why the calibration ended without them.
    private(set) var failure: String?

    private let stepTimeout: Double
    /// The last error of the sensor at a location, to say why it cannot be read.
    var lastError: (SensorLocation) -> String? = { _ in nil }
    /// Takes the readings through the daemon instead, once a sensor cannot be read (``DaemonStatusReadings``): nil when it
    /// did, else why not.
    var readThroughDaemon: () -> String? = { "it was not tried" }

    init(loop: EventLoop, output: CalibrationOutput, stepTimeout: Double) {
        self.loop = loop
        self.output = output
        self.stepTimeout = stepTimeout
    }

    /// Starts asking for the poses of `session`'s plan.
    func begin(session: CalibrationSession) {
        self.session = session
        output.say(CalibrationPlan.uprightMeaning)
        ask(session.current)
    }

    private func ask(_ index: Int) {
        guard let plan = session?.plan else { return }
        output.step(index, of: plan)
        let limit = stepTimeout
        deadline = try? loop.addTimer(at: loop.now + limit) { [weak self] in
            self?.end(failure: "step \(index + 1) was not held still within \(CalibrationSession.decimal(limit)) s")
        }
    }

    private func end(failure: String?) {
        self.failure = failure
        deadline = nil
        session = nil
        loop.exit(code: failure == nil ? 0 : 1)
    }

    func take(_ sample: Sample, from location: SensorLocation) {
        guard var current = session else { return }
        let sensor: CalibratedSensor = location == .base ? .base : .display
        let event = current.add(sample.acceleration, of: sensor, at: sample.time)
        session = current
        switch event {
        case nil:
            showProgress(current)
        case .held(let index, let readings):
            output.held(index, readings: readings, plan: current.plan)
            ask(current.current)
        case .refused(let index, let why):
            output.refused(index, why: why)
            ask(index)
        case .finished(let found, let lastHeld):
            output.held(current.plan.steps.count - 1, readings: lastHeld, plan: current.plan)
            outcome = found
            end(failure: nil)
        case .failed(let why):
            end(failure: why)
        }
    }

    func statusChanged(at location: SensorLocation, from previous: SensorState, to current: SensorState) {
        guard session != nil, current == .failed || current == .absent else { return }
        let name = location == .base ? "the base accelerometer" : "the accelerometer"
        let why = lastError(location).map { ": \($0)" } ?? ""
        if current == .absent {
            end(failure: "\(name) went away\(why); nothing written")
            return
        }
        // The driver may refuse raw readings now that the daemon reads its buffer: the daemon hands them on.
        guard let refused = readThroughDaemon() else { return }
        end(failure: Self.cannotRead(name, why: why, daemon: refused))
    }

    /// The readings that came through the daemon stopped (it went away, or its sensor did).
    func daemonReadingsStopped(_ why: String) {
        guard session != nil else { return }
        end(failure: "the readings through the daemon stopped: \(why); nothing written")
    }

    /// Why an accelerometer cannot be read, by calibrate or through the daemon, and what to do.
    static func cannotRead(_ name: String, why: String, daemon: String) -> String {
        "\(name) cannot be read\(why). Some drivers refuse raw readings while orientd reads their buffer for a "
            + "client, and the daemon could not give them (\(daemon)): stop the clients or 'systemctl stop orientd', "
            + "calibrate, and start it again"
    }

    private func showProgress(_ session: CalibrationSession) {
        guard let step = session.step else { return }
        var waitingForTurn = false
        var moving = false
        for sensor in session.plan.sensors where step.expected(sensor) != nil {
            switch session.state(of: sensor) {
            case .notTurned: waitingForTurn = true
            case .waiting, .moving: moving = true
            case .holding, .held: break
            }
        }
        if waitingForTurn {
            output.progress("waiting for it to be turned into the new pose")
        } else if moving {
            output.progress("moving…")
        } else {
            let filled = Int((session.progress * 10).rounded(.down))
            output.progress(
                "hold still [" + String(repeating: "#", count: filled) + String(repeating: ".", count: 10 - filled)
                    + "]"
            )
        }
    }
}
