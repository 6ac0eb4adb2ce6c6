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

/// The classifier's targets (CLASSIFIER.md), scored by the project's evaluation scripts on traces
/// generated at test time: orient_sim.py writes scenario traces with ground truth, orient_eval.py
/// runs `orientd classify` on each and checks every target.
// Without the evaluation kit (a checkout alone, or `make check`, which leaves it out) these tests are skipped, and
// swift-testing prints the reason with each one.
@Suite(
    "classifier targets on generated traces",
    .enabled(if: EvaluationKit.isPresent, EvaluationKit.absence)
)
struct ClassifierEvaluationTests {
    /// `$ORIENTD_PYTHON`, else python3 from PATH; it needs numpy (`make deps` installs it).
    static var python: (URL, [String]) {
        if let path = ProcessInfo.processInfo.environment["ORIENTD_PYTHON"], !path.isEmpty {
            return (URL(fileURLWithPath: path), [])
        }
        return (URL(fileURLWithPath: "/usr/bin/env"), ["python3"])
    }

    /// Generates traces with `generator` (orient_sim.py or a script with its `generate` command and
    /// `arguments`), scores `orientd classify` on them with orient_eval.py and returns what it printed
    /// and its figures per scenario.
    static func score(
        generator: URL,
        _ arguments: [String]
    ) throws -> (CommandRunner.Result, [String: [String: Any]]) {
        let evaluator = EvaluationKit.folder.appendingPathComponent("orient_eval.py")
        try #require(
            FileManager.default.fileExists(atPath: evaluator.path),
            "the evaluation scripts are not at \(EvaluationKit.folder.path); set ORIENTD_EVAL_DIR"
        )
        let orientd = try CommandRunner.orientd()
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (python, prefix) = python

        let generated = try CommandRunner.run(
            python,
            prefix + [generator.path, "generate", "--out", folder.path] + arguments
        )
        try #require(
            generated.status == 0,
            "\(generator.lastPathComponent) failed (is numpy installed? make deps): \(generated.standardError)"
        )

        let table = folder.appendingPathComponent("scores.json")
        let scored = try CommandRunner.run(
            python,
            prefix + [
                evaluator.path, "--traces", folder.path, "--cmd", "\(orientd.path) classify {trace}", "--json",
                table.path,
            ]
        )
        try #require(FileManager.default.fileExists(atPath: table.path), "orient_eval.py: \(scored.standardError)")
        let rows = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: table)) as? [String: [String: Any]]
        )
        return (scored, rows)
    }

    @Test("every target holds", arguments: [10, 25, 100])
    func targetsHold(rate: Int) throws {
        let simulator = EvaluationKit.folder.appendingPathComponent("orient_sim.py")
        let (scored, _) = try Self.score(generator: simulator, ["--rate", String(rate), "--reps", "3"])
        print("classifier at \(rate) Hz:\n\(scored.standardOutput)")
        let failures = scored.standardOutput.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(scored.status == 0, "\(scored.standardError)")
        #expect(scored.standardOutput.contains(" passed, 0 failed"))
    }
}
