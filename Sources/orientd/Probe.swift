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
import OrientDaemon
import OrientationCore
import SensorDevices

/// `orientd sensors --probe`: starts the chosen accelerometer for a moment and reports how it
/// could really be read, and a first calibrated sample.
struct Probe {
    let options: SensorOptions
    let verbose: Bool

    func run() throws {
        let logger = Logger(label: "orientd.probe")
        let loop: EventLoop
        do {
            loop = try EventLoop()
        } catch {
            throw CommandFailure("\(error)")
        }
        // The probe shows what the sensor reads, zeros and clipped readings included.
        var options = options
        options.handsOnImplausibleReadings = true
        let reader = FirstSamples(loop: loop)
        // The IIO accelerometer, or the input one when there is no IIO one, as the daemon chooses.
        let sensor = DisplaySensor(
            loop: loop,
            options: options,
            logger: logger,
            reports: SensorRecipients(samples: reader, delegate: reader)
        )
        var sources: [AnyObject] = []
        var interrupted = false
        do {
            sources.append(try loop.addTimer(at: loop.now + options.pollFallback + 1.5) { loop.exit(code: 0) })
            for signal in Signals.handled {
                sources.append(
                    try loop.addSignal(signal) {
                        interrupted = true
                        loop.exit(code: 1)
                    }
                )
            }
        } catch {
            throw CommandFailure("\(error)")
        }
        sensor.start()
        if sensor.status == .active {
            _ = try? loop.run()
        }
        let mode = sensor.mode
        let fellBack = sensor.fellBack
        sensor.stop()
        withExtendedLifetime(sources) {}
        if interrupted { throw CommandFailure("probe interrupted; the accelerometer is stopped and restored") }
        guard let first = reader.first, let mode else {
            throw CommandFailure(
                "probe: no sample within \(options.pollFallback + 1.5) s (\(sensor.lastError ?? "no error reported"))"
            )
        }
        var text = "probe: \(mode.rawValue)"
        if fellBack {
            text += " (the buffer delivered nothing within \(Sensors.number(options.pollFallback)) s: polling instead)"
        }
        text += "; first sample \(Sensors.vector(first.acceleration)) m/s²\n"
        print(text, terminator: "")
    }
}

/// Keeps the probe's first sample, and ends the loop a few samples later, so that polling (if it took over) shows
/// too. It manages the sensor with nothing to hear: the probe reads the sensor's status once started.
private final class FirstSamples: AccelerometerSampleSink, AccelerometerSensorDelegate {
    private let loop: EventLoop
    private(set) var first: Sample?
    private var count = 0

    init(loop: EventLoop) {
        self.loop = loop
    }

    func take(_ sample: Sample, from location: SensorLocation) {
        count += 1
        if first == nil { first = sample }
        if count >= 3 { loop.exit(code: 0) }
    }
}
