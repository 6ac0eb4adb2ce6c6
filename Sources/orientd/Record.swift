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
import OrientationCore
import SensorDevices
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// `orientd record`: a trace from the live sensor, in the format `orientd classify` reads.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record a trace from the live accelerometer (stdout without --output).",
        discussion: """
            Writes the CLASSIFIER.md trace format: calibrated samples in m/s² after the mount \
            matrix, t in seconds from the first sample. On a convertible with a base accelerometer \
            too, both are recorded in a two-sensor trace (t,x,y,z,bx,by,bz: each line has the \
            display's reading or the base's), which 'orientd classify' reads with the hinge angle. Stops after --seconds, or on Ctrl-C \
            (SIGINT) or SIGTERM; the sensor is then restored as it was. If the accelerometer \
            disappears while recording, the recording waits for it to return.
            """
    )

    @OptionGroup var sensor: SensorOptionGroup

    @Option(help: "Stop after this many seconds (default: until interrupted).")
    var seconds: Double?

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("Write the trace to this file instead of standard output.", valueName: "file")
    )
    var output: String?

    func validate() throws {
        if let seconds, !(seconds > 0 && seconds.isFinite) {
            throw ValidationError("--seconds must be a positive number of seconds")
        }
    }

    func run() throws {
        let logger = Logger(label: "orientd.record")
        var options = sensor.sensorOptions
        // A recording is for diagnosis: it keeps readings of zeros and clipped ones, which the daemon ignores.
        options.handsOnImplausibleReadings = true
        let loop: EventLoop
        do {
            loop = try EventLoop()
        } catch {
            throw CommandFailure("\(error)")
        }
        let writer = TraceRecording(loop: loop, logger: logger)
        // The IIO accelerometer, or the input one when there is no IIO one, as the daemon chooses.
        let reports = SensorRecipients(samples: writer, delegate: writer)
        let recorder = DisplaySensor(loop: loop, options: options, logger: logger, reports: reports)
        var baseLogger = logger
        baseLogger[metadataKey: "sensor"] = "base"
        let baseRecorder = AccelerometerSensor(
            loop: loop,
            options: options.forBase,
            logger: baseLogger,
            reports: reports
        )
        var sources: [AnyObject] = []
        do {
            for signal in Signals.handled {
                sources.append(try loop.addSignal(signal) { loop.exit(code: 0) })
            }
            if let seconds {
                sources.append(try loop.addTimer(at: loop.now + seconds) { loop.exit(code: 0) })
            }
        } catch {
            throw CommandFailure("\(error)")
        }
        recorder.start()
        guard recorder.status == .active, let chosen = recorder.accelerometer else {
            recorder.stop()
            throw CommandFailure(
                "no accelerometer to record: \(recorder.lastError ?? "unknown error") "
                    + "('orientd sensors' lists what was found)"
            )
        }
        // The base accelerometer, when there is one, is recorded beside the display one.
        baseRecorder.start()
        let base = baseRecorder.status == .active ? baseRecorder.accelerometer : nil
        if base == nil { baseRecorder.stop() }
        do {
            writer.sink = try TraceSink(
                path: output,
                rateHz: recorder.mode == .buffer ? chosen.chooseFrequency(atLeast: options.rate) : options.rate,
                withBase: base != nil
            )
        } catch {
            recorder.stop()
            baseRecorder.stop()
            throw error
        }
        logger.info(
            "recording",
            metadata: [
                "device": "\(chosen.id)", "mode": "\(recorder.mode?.rawValue ?? "-")", "rate": "\(options.rate)",
                "base": "\(base.map { "\($0.id) (\(baseRecorder.mode?.rawValue ?? "-"))" } ?? "none")",
            ]
        )
        let code: Int32
        do {
            code = try loop.run()
        } catch {
            recorder.stop()
            baseRecorder.stop()
            throw CommandFailure("\(error)")
        }
        recorder.stop()
        baseRecorder.stop()
        writer.sink?.finish()
        withExtendedLifetime(sources) {}
        logger.info("recording finished", metadata: ["samples": "\(writer.sink?.samples ?? 0)"])
        if code != 0 { throw ExitCode(code) }
    }
}
