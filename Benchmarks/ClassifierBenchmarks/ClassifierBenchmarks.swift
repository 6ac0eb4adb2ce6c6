import Benchmark
import OrientationCore

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
