import Foundation
import Testing

/// The classifier's targets (CLASSIFIER.md), scored by the project's evaluation scripts on traces
/// generated at test time: orient_sim.py writes scenario traces with ground truth, orient_eval.py
/// runs `orientd classify` on each and checks every target.
@Suite("classifier targets on generated traces")
struct ClassifierEvaluationTests {
    /// `$ORIENTD_EVAL_DIR`, else `shared/eval` beside the repository.
    static var evaluationFolder: URL {
        if let path = ProcessInfo.processInfo.environment["ORIENTD_EVAL_DIR"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return CommandRunner.repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/eval")
    }

    /// `$ORIENTD_PYTHON`, else python3 from PATH; it needs numpy (`make deps` installs it).
    static var python: (URL, [String]) {
        if let path = ProcessInfo.processInfo.environment["ORIENTD_PYTHON"], !path.isEmpty {
            return (URL(fileURLWithPath: path), [])
        }
        return (URL(fileURLWithPath: "/usr/bin/env"), ["python3"])
    }

    @Test("every target holds", arguments: [10, 25, 100])
    func targetsHold(rate: Int) throws {
        let simulator = Self.evaluationFolder.appendingPathComponent("orient_sim.py")
        let evaluator = Self.evaluationFolder.appendingPathComponent("orient_eval.py")
        try #require(
            FileManager.default.fileExists(atPath: simulator.path),
            "the evaluation scripts are not at \(Self.evaluationFolder.path); set ORIENTD_EVAL_DIR"
        )
        let orientd = try CommandRunner.orientd()
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (python, prefix) = Self.python

        let generated = try CommandRunner.run(
            python,
            prefix + [simulator.path, "generate", "--out", folder.path, "--rate", String(rate), "--reps", "3"]
        )
        try #require(
            generated.status == 0,
            "orient_sim.py failed (is numpy installed? make deps): \(generated.standardError)"
        )

        let scored = try CommandRunner.run(
            python,
            prefix + [evaluator.path, "--traces", folder.path, "--cmd", "\(orientd.path) classify {trace}"]
        )
        print("classifier at \(rate) Hz:\n\(scored.standardOutput)")
        let failures = scored.standardOutput.split(separator: "\n").filter { $0.hasPrefix("FAIL") }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(scored.status == 0, "\(scored.standardError)")
        #expect(scored.standardOutput.contains(" passed, 0 failed"))
    }
}
