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

import ArgumentParser
import EventLoop
import Logging
import OrientDaemon
import OrientProtocol
import OrientationCore
import SensorDevices
import SystemSupport
import UdevSupport

#if canImport(Glibc)
import Glibc
#endif

/// `orientd calibrate`: a guided mount-matrix calibration of every accelerometer, its result applied and verified.
struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find every accelerometer's mount matrix by asking for a few poses, and apply it.",
        discussion: """
            Asks for three poses (five on a convertible with an accelerometer in the base too), one at a \
            time; each is taken when the machine is held still in it for a moment, no key press needed. \
            From the raw readings it derives each accelerometer's mount matrix (rotations and reflections \
            alike) and refuses, with nothing written, poses that cannot give one: two poses along the same \
            axis, a reading far from 1 g, a pose held between two axes. It reads the sensors itself \
            (polling when the daemon holds the buffer), whether or not the daemon runs. Some drivers \
            (bmc150, kxcjk-1013, st_accel) refuse raw readings while the daemon reads their buffer for a \
            client: then the readings come through the daemon (its control socket: [Server] Socket= of its \
            configuration, else $ORIENTD_SOCKET, else /run/orientd/socket), which keeps the sensors running \
            until the calibration ends; it says so. If the daemon cannot give them either, it ends with an \
            error and nothing written: stop the clients or 'systemctl stop orientd' for the minute it takes.

            'Upright' means the way the picture stands when nothing turns it, as the maker's logo appears \
            at power-on (systemd's 60-sensor.hwdb defines the axes by the display panel, not the casing): \
            on a laptop its usual position, on a tablet whose panel is built in portrait the portrait \
            position. A base accelerometer's matrix is written in systemd's frame: the base reads what the \
            display reads with the lid closed (lying flat, keyboard up: z = -g; stood on its front edge, \
            hinge at the top: y = +g). An entry an older orientd calibrate wrote for a base in its former \
            frame (the lid opened flat) is replaced. For ChromeOS's cros-ec sensors the entry is written \
            in the form of systemd's own (HID's sign of z).

            --apply hwdb (the default as root) writes the entry to \
            /etc/udev/hwdb.d/61-sensor-local.hwdb (keeping the file's other entries), with the match line \
            that systemd's 60-sensor.rules looks this sensor up by (modalias, label, DMI), runs \
            'systemd-hwdb update', triggers udev for the sensor and checks that udev now gives it the new \
            ACCEL_MOUNT_MATRIX. --apply config writes MountMatrix= for orientd alone to \
            /etc/orientd/orientd.conf.d/60-calibration.conf (the display accelerometer only) and reloads \
            the daemon. --apply no (the default for other users) only prints. --hwdb-root DIR writes under \
            DIR instead and runs 'systemd-hwdb update --root DIR', touching nothing else. In the end it \
            prints the entry as systemd's 60-sensor.hwdb wants it in a pull request, so that the next owner \
            of the model gets it without calibrating.

            With --json: one JSON object per line on standard output (CLI.md: step, held, refused, \
            result, error) and the prompts on standard error.
            """
    )

    /// Where the result goes.
    enum Apply: String, ExpressibleByArgument, CaseIterable {
        case hwdb, config, no
    }

    @Option(help: ArgumentHelp("Calibrate this accelerometer only: its id (iio:device1), name, label or sysfs path."))
    var device: String?

    @Flag(help: "Poll the raw attributes even when the buffer could be used.")
    var poll = false

    @Option(help: "Where the result goes: hwdb, config or no (default: hwdb as root, else no).")
    var apply: Apply?

    @Option(
        name: .customLong("hwdb-root"),
        help: ArgumentHelp("Write under this root folder instead of the system's (for tests and packagers).")
    )
    var hwdbRoot: String?

    @Flag(help: "One JSON object per line on standard output; prompts on standard error.")
    var json = false

    @Option(
        name: .customLong("step-timeout"),
        help: ArgumentHelp("Seconds each pose may take before the calibration ends with an error (default 120).")
    )
    var stepTimeout: Double = 120

    @Flag(name: .shortAndLong, help: "Log debug messages too.")
    var verbose = false

    func validate() throws {
        guard stepTimeout > 0, stepTimeout.isFinite else {
            throw ValidationError("--step-timeout must be a positive number of seconds")
        }
    }

    func run() throws {
        let output = CalibrationOutput(json: json)
        let mode = apply ?? (hwdbRoot != nil || geteuid() == 0 ? .hwdb : .no)
        let logger = Logger(label: "orientd.calibrate")
        let loop: EventLoop
        do {
            loop = try EventLoop()
        } catch {
            output.fail("\(error)")
        }
        var options = SensorOptions(device: device, mountMatrix: .identity, forcePolling: poll)
        options.rate = 20
        let run = CalibrationRun(loop: loop, output: output, stepTimeout: stepTimeout)
        let reports = SensorRecipients(samples: run, delegate: run)
        let display = DisplaySensor(loop: loop, options: options, logger: logger, reports: reports)
        var baseOptions = options.forBase
        baseOptions.mountMatrix = .identity
        var baseLogger = logger
        baseLogger[metadataKey: "sensor"] = "base"
        let base = AccelerometerSensor(loop: loop, options: baseOptions, logger: baseLogger, reports: reports)
        run.lastError = { [unowned display, unowned base] location in
            location == .base ? base.lastError : display.lastError
        }
        var sources: [AnyObject] = []
        do {
            for signal in Signals.handled {
                sources.append(try loop.addSignal(signal) { loop.exit(code: 130) })
            }
        } catch {
            output.fail("\(error)")
        }
        display.start()
        // A sensor that failed has found its accelerometer and cannot read it: the daemon may (below).
        guard display.status == .active || display.status == .failed, let chosen = display.accelerometer else {
            display.stop()
            output.fail(
                "no accelerometer to calibrate: \(display.lastError ?? "none found") ('orientd sensors' lists what was found)"
            )
        }
        if device != nil, chosen.location == .base {
            display.stop()
            output.fail(
                "\(chosen.id) is the base accelerometer: run 'orientd calibrate' without --device to calibrate it "
                    + "with the display's"
            )
        }
        var baseChosen: Accelerometer?
        if device == nil {
            base.start()
            if base.status == .active || base.status == .failed, let found = base.accelerometer, found.id != chosen.id {
                baseChosen = found
            } else {
                base.stop()
            }
        }
        // Some drivers refuse raw readings while the daemon reads their buffer for a client: their readings are
        // taken through the daemon then, at the start or once a sensor fails.
        var throughDaemon: DaemonStatusReadings?
        var stopLocalSensors: TimerSource?
        let readThroughDaemon = { [unowned run, unowned display, unowned base] () -> String? in
            // A local sensor that fails before it is stopped at the switch: its readings come through the daemon.
            guard throughDaemon == nil else { return nil }
            var devices: [SensorLocation: String] = [.display: chosen.id]
            if let baseChosen { devices[.base] = baseChosen.id }
            do throws(DaemonStatusReadings.Unavailable) {
                throughDaemon = try DaemonStatusReadings(loop: loop, devices: devices, sink: run) { why in
                    run.daemonReadingsStopped(why)
                }
            } catch {
                return error.description
            }
            output.say(
                "The readings come through the daemon (orientd reads the accelerometer's buffer for a client, and "
                    + "its driver refuses calibrate raw readings meanwhile)."
            )
            // Not from inside a sensor's own report: stopped at the loop's next turn.
            stopLocalSensors = try? loop.addNextTurnAction {
                display.stop()
                base.stop()
            }
            return nil
        }
        if display.status == .failed || (baseChosen != nil && base.status == .failed) {
            if let refused = readThroughDaemon() {
                if display.status == .failed {
                    display.stop()
                    base.stop()
                    output.fail(
                        CalibrationRun.cannotRead(
                            "\(chosen.id)",
                            why: display.lastError.map { ": \($0)" } ?? "",
                            daemon: refused
                        )
                    )
                }
                // The base alone cannot be read, nor given by the daemon: the display is calibrated alone.
                base.stop()
                baseChosen = nil
            }
        }
        run.readThroughDaemon = readThroughDaemon
        // Readings in m/s² are checked against 9.81; raw counts, or a guessed scale, against the first pose's size.
        let isScaled = { (accelerometer: Accelerometer) in
            accelerometer.scaleSource != "none" && !accelerometer.scaleSource.hasPrefix("default")
        }
        let scaled = isScaled(chosen) && (baseChosen.map(isScaled) ?? true)
        let plan = CalibrationPlan(withBase: baseChosen != nil)
        run.begin(session: CalibrationSession(plan: plan, gravity: scaled ? 9.80665 : nil))
        let code: Int32
        do {
            code = try loop.run()
        } catch {
            display.stop()
            base.stop()
            throughDaemon?.stop()
            output.fail("\(error)")
        }
        display.stop()
        base.stop()
        throughDaemon?.stop()
        withExtendedLifetime((sources, stopLocalSensors)) {}
        guard code == 0, let outcome = run.outcome else {
            if code == 130 { output.fail("interrupted: nothing written") }
            output.fail(run.failure ?? "the calibration did not finish")
        }
        var sensors: [(CalibratedSensor, Accelerometer)] = [(.display, chosen)]
        if let baseChosen { sensors.append((.base, baseChosen)) }
        let result = CalibrationResult(outcome: outcome, sensors: sensors, root: hwdbRoot, mode: mode)
        result.applyAndReport(output)
    }
}
