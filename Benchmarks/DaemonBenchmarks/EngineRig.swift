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

import EngineFakes
import Logging
import OrientDaemon
import OrientProtocol
import OrientationCore
import OrientdTestSupport
import SensorDevices

/// The engine as the daemon runs it per sample, put together as the daemon does it but without a socket or a device:
/// an output that drops what it is told, fake sensors that take the pace they are given, the tilt followed (as with
/// the D-Bus service), and 100,000 samples at 50 Hz of a device held in one pose with tremor, nudged every 8 s: the
/// nudge moves it (the full pace), then it settles (the idle pace) without a change of orientation, so that every
/// sample runs the classifier, the tilt and the pace tracker and nothing else.
final class EngineRig {
    let engine: Engine
    let samples: [Sample]
    private let output = DiscardingOutput()
    private let display = FakeSensor(accelerometer: nil)

    init() throws {
        var settings = DaemonSettings()
        settings.stateDirectory = "/nonexistent/orientd-benchmark"
        // The tilt is followed, as with the D-Bus service.
        settings.sensorProxyCompat = true
        let quiet = Logger(label: "orientd-benchmark") { _ in SwiftLogNoOpLogHandler() }
        engine = try Engine(
            settings: settings,
            store: StateStore(directory: settings.stateDirectory, logger: quiet),
            logger: quiet,
            output: output,
            scheduler: VirtualScheduler(),
            sensorFactory: FakeSensorFactory(display: display, base: nil)
        )
        var random = SeededGenerator(seed: 0x5eed)
        let noise = { () -> Double in random.symmetric() * 0.05 }
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

    /// Feeds every sample to the engine; the number of pace changes the display's sensor was asked for. The paces
    /// of the run before are forgotten first, their storage kept and made room for a change per sample, so that only
    /// the first run allocates for them.
    func run() -> Int {
        display.forgetPaces(reserving: samples.count)
        for sample in samples { engine.handle(sample) }
        return display.paces.count
    }
}
