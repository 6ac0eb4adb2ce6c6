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
import OrientationCore
import SensorDevices

/// 100,000 samples at 100 Hz: held in each pose in turn, laid flat, picked up, with a little
/// deterministic noise, so that every branch of the classifier runs.
private let samples: [Sample] = {
    var generator = NoiseGenerator(seed: 0x5eed)
    let g = 9.80665
    let poses: [(Double, Double, Double)] = [
        (0, -g, 0), (g, 0, 0), (0, g, 0), (-g, 0, 0), (0, 0, g), (0, -g, 0), (0, 0, -g),
    ]
    var result: [Sample] = []
    result.reserveCapacity(100_000)
    for index in 0..<100_000 {
        let pose = poses[(index / 300) % poses.count]
        result.append(
            Sample(
                time: Double(index) / 100,
                x: pose.0 + generator.next(),
                y: pose.1 + generator.next(),
                z: pose.2 + generator.next()
            )
        )
    }
    return result
}()

/// A linear congruential generator: noise of ±0.1 m/s², the same on every run.
private struct NoiseGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return (Double(state >> 11) / Double(1 << 53) - 0.5) * 0.2
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .throughput],
        maxDuration: .seconds(3),
        maxIterations: 1000
    )

    // One iteration classifies all 100,000 samples: ns per sample = µs per iteration × 10.
    Benchmark("Classifier: 100,000 samples") { benchmark in
        var classifier = OrientationClassifier()
        var changes = 0
        benchmark.startMeasurement()
        for sample in samples where classifier.update(sample) {
            changes += 1
        }
        benchmark.stopMeasurement()
        blackHole(changes)
        blackHole(classifier.deviceOrientation)
    }

    // The hinge of a two-accelerometer convertible: each sample in turn as the display's and the base's reading
    // (the lid at 180° in every pose, and moving between them), through every stillness and seam check.
    Benchmark("Hinge monitor: 100,000 samples") { benchmark in
        var monitor = HingeMonitor()
        var changes = 0
        benchmark.startMeasurement()
        for (index, sample) in samples.enumerated()
        where monitor.update(sample, from: index % 2 == 0 ? .display : .base) {
            changes += 1
        }
        benchmark.stopMeasurement()
        blackHole(changes)
        blackHole(monitor.angle)
    }

    // The daemon's hot path from the IIO buffer: decode each 16-byte scan (le:s16 x, y, z and an
    // s64 timestamp), calibrate it (scale, offset, mount matrix) and classify it.
    Benchmark("Decode + calibrate + classify: 100,000 scans") { benchmark in
        var classifier = OrientationClassifier()
        var changes = 0
        benchmark.startMeasurement()
        scans.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let raw = scanLayout.decode(bytes.baseAddress!.advanced(by: offset))
                let time = Double(raw.timestamp ?? 0) / 1_000_000_000
                let sample = Sample(time: time, acceleration: calibration.apply(x: raw.x, y: raw.y, z: raw.z))
                if classifier.update(sample) { changes += 1 }
                offset += scanLayout.scanSize
            }
        }
        benchmark.stopMeasurement()
        blackHole(changes)
        blackHole(classifier.deviceOrientation)
    }

    // The same loop over no samples: what the harness itself costs, so that the classifier's
    // own allocations per sample are (classifier − harness) / 100,000.
    Benchmark("Harness only: 0 samples") { benchmark in
        var classifier = OrientationClassifier()
        var changes = 0
        benchmark.startMeasurement()
        for sample in noSamples where classifier.update(sample) {
            changes += 1
        }
        benchmark.stopMeasurement()
        blackHole(changes)
        blackHole(classifier.deviceOrientation)
    }
}

private let noSamples: [Sample] = []

/// A HID sensor's layout: x, y, z as le:s16 at indices 0–2 and a le:s64 timestamp at index 3.
private let scanLayout: ScanLayout = {
    let axis = try! ScanElementFormat(parsing: "le:s16/16>>0")
    let time = try! ScanElementFormat(parsing: "le:s64/64>>0")
    return try! ScanLayout(
        x: ScanLayout.Channel(scanIndex: 0, format: axis),
        y: ScanLayout.Channel(scanIndex: 1, format: axis),
        z: ScanLayout.Channel(scanIndex: 2, format: axis),
        timestamp: ScanLayout.Channel(scanIndex: 3, format: time)
    )
}()

/// 1 g = 1000 counts, a 90° mount, as a real convertible's.
private let calibration = Calibration(
    scale: Vector3(x: 0.00980665, y: 0.00980665, z: 0.00980665),
    offset: .zero,
    matrix: try! MountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1")
)

/// The samples above as raw scans: counts in the sensor's frame, timestamps in nanoseconds.
private let scans: [UInt8] = {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(samples.count * 16)
    func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
    for sample in samples {
        // Invert the mount matrix (x' = -y, y' = x) and the scale.
        let a = sample.acceleration
        append(Int16((a.y / 0.00980665).rounded()))
        append(Int16((-a.x / 0.00980665).rounded()))
        append(Int16((a.z / 0.00980665).rounded()))
        append(Int16(0))
        append(Int64(sample.time * 1_000_000_000))
    }
    return bytes
}()
