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

/// `orientd classify` says when a trace's axes cannot be right (CLASSIFIER.md): one line per finding.
@Suite("orientd classify, axes that check themselves")
struct ClassifyAxesTests {
    static let g = ClassifyTwoSensorTests.g

    static func findings(_ trace: String) throws -> [[String: Any]] {
        let result = try CommandRunner.run(try CommandRunner.orientd(), ["classify", "-"], input: trace)
        #expect(result.status == 0, "\(result.standardError)")
        return try ClassifyTwoSensorTests.objects(result.standardOutput).filter { $0["axes"] != nil }
    }

    /// A laptop at 110° on a desk, 40 s, then held as a book (hinge upright), then on the desk again.
    static func laptop(display transform: ([Double]) -> [Double] = { $0 }) -> String {
        ClassifyTwoSensorTests.trace([
            (40, transform([0, -g * 0.9397, g * 0.3420]), [0, 0, -g]),
            (10, transform([g, 0, 0]), [g, 0, 0]),
            (20, transform([0, -g * 0.9063, g * 0.4226]), [0, 0, -g]),
        ])
    }

    @Test func theRightAxesGiveNoFinding() throws {
        #expect(try Self.findings(Self.laptop()).isEmpty)
        #expect(try Self.findings(ClassifyTwoSensorTests.laptopTentPortrait).isEmpty)
    }

    /// The display's matrix turned a quarter (x and y exchanged, one sign flipped): the hinge axis disagrees, and
    /// the display reads sideways over a flat base.
    @Test func aDisplayTurnedAQuarterIsFound() throws {
        let found = try Self.findings(Self.laptop { [$0[1], -$0[0], $0[2]] })
        #expect(!found.isEmpty)
        for line in found {
            #expect(line["axes"] as? String == "display", "\(line)")
            #expect((line["finding"] as? String)?.contains("orientd calibrate") == true)
            #expect(line["t"] is Double)
            #expect(line["suggested"] is NSNull || line["suggested"] is String)
        }
        #expect(found.count == Set(found.map { "\($0["finding"] ?? "")".prefix(30) }).count, "once per kind")
    }

    /// Upside down (a turn of 180° about the normal): not upright over the flat base; the book pose before shows
    /// where x is, so the matrix is suggested.
    @Test func aDisplayUpsideDownGetsTheMatrixSuggested() throws {
        let trace = ClassifyTwoSensorTests.trace([
            (10, [-Self.g, 0, 0], [Self.g, 0, 0]),
            (40, [0, Self.g * 0.9397, Self.g * 0.3420], [0, 0, -Self.g]),
        ])
        let found = try Self.findings(trace)
        let upright = try #require(found.first { ($0["finding"] as? String)?.contains("upside down") == true })
        #expect(upright["suggested"] as? String == "-1, 0, 0; 0, -1, 0; 0, 0, 1", "\(found)")
    }

    /// The evaluation's own scenarios (one accelerometer, right axes): no finding in any.
    @Test(.enabled(if: EvaluationKit.isPresent, EvaluationKit.absence))
    func theEvaluationScenariosGiveNoFinding() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (python, prefix) = ClassifierEvaluationTests.python
        let simulator = EvaluationKit.folder.appendingPathComponent("orient_sim.py")
        let generated = try CommandRunner.run(
            python,
            prefix + [simulator.path, "generate", "--out", folder.path, "--rate", "25", "--reps", "1"]
        )
        try #require(generated.status == 0, "\(generated.standardError)")
        let traces = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".csv") }
        #expect(!traces.isEmpty)
        for trace in traces {
            let result = try CommandRunner.run(
                try CommandRunner.orientd(),
                ["classify", folder.appendingPathComponent(trace).path]
            )
            #expect(result.status == 0, "\(trace): \(result.standardError)")
            #expect(!result.standardOutput.contains("\"axes\""), "\(trace): \(result.standardOutput)")
        }
    }
}
