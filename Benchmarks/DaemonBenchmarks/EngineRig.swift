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

import IIOSensor
import Logging
import OrientDaemon
import OrientProtocol
import OrientationCore

/// The engine as the daemon runs it per sample, put together as the daemon does it but without a socket or a device:
/// an output that drops what it is told, sensors that take the pace they are given, the tilt followed (as with the D-Bus service), and 100,000 samples at 50 Hz of a device held in one pose
/// with tremor, nudged every 8 s: the nudge moves it (the full pace), then it settles (the idle pace) without a
/// change of orientation, so that every sample runs the classifier, the tilt and the pace tracker and nothing else.
final class EngineRig {
    let engine: Engine
    let samples: [Sample]
    private let output = DroppedOutput()
    private let sensors = PaceOnlySensors()

    init() throws {
        var settings = DaemonSettings()
        settings.stateDirectory = "/nonexistent/orientd-benchmark"
        let quiet = Logger(label: "orientd-benchmark") { _ in SwiftLogNoOpLogHandler() }
        engine = try Engine(
            settings: settings,
            store: StateStore(directory: settings.stateDirectory, logger: quiet),
            logger: quiet,
            output: output,
            sensorFactory: sensors
        )
        engine.tracksTilt = true
        var state: UInt64 = 0x5eed
        let noise = { () -> Double in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(state >> 11) / Double(1 << 53) - 0.5) * 0.1
        }
        let g = 9.80665
        samples = (0..<100_000).map { index in
            let time = Double(index) / 50
            // A nudge of 0.3 s every 8 s: up to 20° about the display's normal, far from a new pose.
            let phase = time.truncatingRemainder(dividingBy: 8)
            let angle = phase < 0.3 ? 0.35 * (phase / 0.3) : 0
            return Sample(
                time: time,
                x: g * angle + noise(),
                y: -g * (1 - angle * angle / 2) + noise(),
                z: noise()
            )
        }
    }

    /// Feeds every sample to the engine; the number of pace changes the display's sensor was asked for.
    func run() -> Int {
        let display = sensors.display
        display?.changes = 0
        for sample in samples { engine.handle(sample) }
        return display?.changes ?? 0
    }
}

/// Drops what the engine tells: the benchmark measures the engine alone.
private final class DroppedOutput: EngineOutput {
    func broadcast(_ line: [UInt8], to generation: GenerationCounter) {}
    func stateChanged(to published: PublishedState) {}
    func tiltChanged(to tilt: DeviceTilt) {}
    func settled() {}
    func hingeAvailabilityChanged(_ decision: TabletModeDecision) {}
    func suggestionStands(for seconds: Double?) {}
}

/// Makes sensors that take the pace and count its changes; never started, never reporting.
private final class PaceOnlySensors: SensorFactory {
    private(set) var display: PaceOnlySensor?

    func makeSensor(options: SensorOptions, reports: SensorReports) -> any EngineSensor {
        let sensor = PaceOnlySensor()
        if options.location == .display { display = sensor }
        return sensor
    }

    var now: Double { 0 }
}

/// Takes the pace and counts its changes; never started, never reports.
private final class PaceOnlySensor: EngineSensor {
    var status: SensorState { .active }
    var accelerometer: Accelerometer? { nil }
    private(set) var pace = SensorPace.full
    var changes = 0
    var mode: CaptureMode? { nil }
    var fellBack: Bool { false }
    var samplesRead: Int { 0 }
    var lastError: String? { nil }

    func start() {}
    func stop() {}
    func close() {}
    func refreshDiscovery() {}
    func setPace(_ pace: SensorPace) {
        self.pace = pace
        changes += 1
    }
}
