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

import Benchmark
import Logging
import OrientDaemon
import OrientProtocol
import OrientationCore

/// A rotation as the daemon sends it: the `interface` event of a change to landscape.
private let rotationEvent = OrientationEvent(
    name: .interface,
    previous: "portrait",
    state: OrientationState(
        device: .landscapeRight,
        interface: .landscapeLeft,
        rotation: .degrees90,
        allowed: .all,
        lock: nil,
        sensor: .active,
        generating: true,
        seq: 4242
    )
)

/// The engine and its samples, made on first use.
nonisolated(unsafe) private var engineRig: EngineRig?

/// One daemon per connection count, made on first use and kept: making 1000 connections is
/// setup, not what is measured. Benchmarks run one at a time on one thread.
nonisolated(unsafe) private var daemons: [Int: BroadcastRig] = [:]

private func rig(connections: Int) -> BroadcastRig {
    if let rig = daemons[connections] { return rig }
    do {
        let rig = try BroadcastRig(connections: connections)
        daemons[connections] = rig
        return rig
    } catch {
        fatalError("cannot set up the daemon for \(connections) connections: \(error)")
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .syscalls],
        maxDuration: .seconds(3),
        maxIterations: 2000
    )

    // The daemon's per-sample path beyond the capture: the engine's `handle` (classifier, tilt, pace tracker) over
    // 100,000 samples of a device nudged and settling, in one pose: µs per iteration × 10 = ns per sample.
    Benchmark("Engine, per sample (classifier, tilt, pace): 100,000 samples") { benchmark in
        if engineRig == nil {
            do { engineRig = try EngineRig() } catch { fatalError("cannot set up the engine: \(error)") }
        }
        let rig = engineRig!
        benchmark.startMeasurement()
        let changes = rig.run()
        benchmark.stopMeasurement()
        precondition(changes > 0, "the pace never changed: the samples do not exercise the pace tracker")
        blackHole(changes)
    }

    // One iteration encodes 1000 events; the figures are per event (the scaling factor divides them).
    Benchmark("Event encoding: 1000 events", configuration: .init(scalingFactor: .kilo)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(MessageEncoder.event(rotationEvent))
        }
    }

    // The same with the writer's buffer kept from one event to the next: what the JSON writing itself costs.
    Benchmark("Event encoding into a reused buffer: 1000 events", configuration: .init(scalingFactor: .kilo)) {
        benchmark in
        var json = JSONWriter(capacity: 512)
        for _ in benchmark.scaledIterations {
            json.removeAll()
            json.value(rotationEvent)
            json.newline()
            blackHole(json.bytes.count)
        }
    }

    // One change (a `constrain` request from a controller, answered, then its `allowed` and
    // `interface` events) sent by the real daemon to every generating connection. Measured: the
    // loop iteration that reads the request, handles it, encodes the events and writes them to
    // each socket. Not measured: the clients reading them afterwards.
    for connections in [1, 100, 1000] {
        Benchmark("Broadcast of one change: \(connections) generating connections") { benchmark in
            let rig = rig(connections: connections)
            rig.sendChange()
            benchmark.startMeasurement()
            rig.dispatchChange()
            benchmark.stopMeasurement()
            rig.drain()
        }
    }
}
