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

import Foundation
import Testing

/// `orientd classify` on scenarios beyond the evaluation's own, generated at test time: turns while reclined
/// 50°, 60° and 70°, and steep turns at 10 Hz (scripts/classifier_scenarios.py, scored by orient_eval.py like the
/// public scenarios),
/// and traces whose magnitude of gravity changes for good.
// Skipped, saying why, without the evaluation kit (see EvaluationKit).
@Suite(
    "classifier on further generated scenarios",
    .enabled(if: EvaluationKit.isPresent, EvaluationKit.absence)
)
struct ClassifierScenarioTests {
    static let turnScenarios = ["rotate", "reclined50", "reclined60", "reclined70"]

    /// Generates `scenarios` at `rate` with scripts/classifier_scenarios.py (`extra` added to its arguments),
    /// scores `orientd classify` on them with orient_eval.py and returns what it printed and its figures.
    private static func score(
        _ scenarios: [String],
        rate: Int,
        reps: Int,
        extra: [String] = []
    ) throws -> (CommandRunner.Result, [String: [String: Any]]) {
        try ClassifierEvaluationTests.score(
            generator: CommandRunner.repositoryRoot.appendingPathComponent("scripts/classifier_scenarios.py"),
            ["--rate", String(rate), "--reps", String(reps), "--scenarios", scenarios.joined(separator: ",")] + extra
        )
    }

    @Test("reclined turns are decided as fast as upright ones", arguments: [10, 25, 100])
    func reclinedTurns(rate: Int) throws {
        try Self.expectEveryTurnCaught(Self.turnScenarios, rate: rate, reps: 3, within: 150)
    }

    /// Scores `scenarios` (six turns each per rep) at `rate`: every turn caught, none false, no wrong device
    /// orientation, and the p95 latency after the motion ends within `bound` ms.
    private static func expectEveryTurnCaught(_ scenarios: [String], rate: Int, reps: Int, within bound: Double) throws
    {
        let (scored, rows) = try score(scenarios, rate: rate, reps: reps)
        print("classifier at \(rate) Hz:\n\(scored.standardOutput)")
        #expect(scored.status == 0, "\(scored.standardOutput)\(scored.standardError)")
        for name in scenarios {
            let row = try #require(rows[name], "no figures for \(name)")
            #expect(row["rotations"] as? Int == 6 * reps, "\(name)")
            #expect(row["missed"] as? Int == 0, "\(name): missed rotations")
            #expect(row["spurious_per_hour"] as? Double == 0, "\(name): false rotations")
            #expect(row["device_spurious"] as? Int == 0, "\(name): wrong device orientations")
            let p95 = try #require(row["latency_after_motion_p95_ms"] as? Double, "\(name)")
            #expect(p95 <= bound, "\(name): p95 \(p95) ms after the motion ends")
        }
    }

    /// Turns that end as real hand-held ones do (scripts/classifier_scenarios.py `hand*`): settling slowly over half a
    /// second, ending reclined 30-50°, trembling as they stop; and half turns that settle (`halfsettle`), which once
    /// waited a whole dwell after passing 135° (the opposite pose is the nearest only there): p95 173 ms at 25 Hz, now
    /// about 50. None is missed or false, and each is decided as fast as a neat turn.
    @Test("turns that end as real hands end them are decided as fast", arguments: [(10, 250.0), (25, 150), (100, 150)])
    func turnsEndingAsRealHandsEndThem(rate: Int, bound: Double) throws {
        let scenarios = ["handsettle", "handtilted", "handtremor", "halfsettle"]
        try Self.expectEveryTurnCaught(scenarios, rate: rate, reps: 6, within: bound)
    }

    /// A tablet on a lap or a stand, reclined 50-68° from upright, turned a quarter or a half in 0.4-1 s and read at
    /// 10 Hz (scripts/classifier_scenarios.py `steep`), several seeds: every turn is caught, with no face-up
    /// report while it stands at 65° and no intermediate orientation shown on a half turn.
    @Test("steep turns at 10 Hz are caught", arguments: [1, 2, 3, 4])
    func steepTurnsAtTenHertz(seed: Int) throws {
        let (scored, rows) = try Self.score(["steep"], rate: 10, reps: 10, extra: ["--seed", String(seed)])
        print("classifier at 10 Hz, seed \(seed):\n\(scored.standardOutput)")
        #expect(scored.status == 0, "\(scored.standardOutput)\(scored.standardError)")
        let row = try #require(rows["steep"], "no figures for steep")
        #expect(row["rotations"] as? Int == 60)
        #expect(row["missed"] as? Int == 0, "missed rotations")
        #expect(row["spurious_per_hour"] as? Double == 0, "false rotations")
        #expect(row["device_spurious"] as? Int == 0, "wrong device orientations (face up, or the one in between)")
        let p95 = try #require(row["latency_after_motion_p95_ms"] as? Double)
        #expect(p95 <= 150, "p95 \(p95) ms after the motion ends")
    }

    /// Every public scenario, its samples multiplied by `factor` from 1.5 s on (before the device moves):
    /// every target of CLASSIFIER.md still holds, face up and face down included.
    @Test("every target holds after a change of scale", arguments: [10, 25, 100], [0.001, 0.5, 3, 1000])
    func changeOfScaleInEveryScenario(rate: Int, factor: Double) throws {
        let scenarios = ["rotate", "repose", "walk", "bump", "table", "boundary", "facedown", "lap", "reclined60"]
        let (scored, rows) = try Self.score(scenarios, rate: rate, reps: 3, extra: ["--rescale", "\(factor)@1.5"])
        let failures = scored.standardOutput.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(failures.isEmpty, "\(rate) Hz, ×\(factor):\n\(scored.standardOutput)")
        #expect(scored.status == 0, "\(scored.standardError)")
        #expect(Set(rows.keys) == Set(scenarios))
    }

    /// Right edge up at |a| = 250 for 2 s, then face up at |a| = 762 (a driver that changed its scale on
    /// resume): face up is printed within 800 ms of the new magnitude, and nothing else.
    @Test("a lasting change of scale is learnt again", arguments: [10, 25, 100])
    func changeOfScale(rate: Int) throws {
        let orientd = try CommandRunner.orientd()
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var lines = ["# orientd-trace 1", "# rate_hz=\(rate)", "t,x,y,z"]
        var noise = UInt64(0x5EED)
        func jitter(_ scale: Double) -> Double {
            noise = noise &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (Double(noise >> 11) / Double(1 << 53) * 2 - 1) * 0.01 * scale
        }
        let period = 1 / Double(rate)
        let change = 2.0
        for index in 0..<(4 * rate) {
            let t = Double(index) * period
            let (x, y, z) = t < change ? (-250.0, 0.0, 0.0) : (0.0, 0.0, 762.0)
            let scale = t < change ? 250.0 : 762
            lines.append(
                String(format: "%.6f,%.4f,%.4f,%.4f", t, x + jitter(scale), y + jitter(scale), z + jitter(scale))
            )
        }
        let trace = folder.appendingPathComponent("rescale.csv")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: trace)

        let result = try CommandRunner.run(orientd, ["classify", trace.path])
        #expect(result.status == 0, "\(result.standardError)")
        let changes = try result.standardOutput.split(separator: "\n").map {
            try JSONDecoder().decode(Change.self, from: Data($0.utf8))
        }
        #expect(changes.map(\.device) == ["portrait-upside-down", "face-up"], "\(result.standardOutput)")
        let faceUp = try #require(changes.first { $0.device == "face-up" }, "stuck: \(result.standardOutput)")
        #expect(faceUp.t - change <= 0.8, "face up \(faceUp.t - change) s after the change")
    }

    /// One line of `orientd classify`.
    private struct Change: Decodable {
        var t: Double
        var device: String
    }
}
