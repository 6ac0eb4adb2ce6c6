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

/// The classifier's evaluation kit (orient_sim.py, orient_eval.py), which is not part of the repository: the
/// classifier's scenario tests need it, and are skipped without it, saying so (`make check` leaves them out).
enum EvaluationKit {
    /// `$ORIENTD_EVAL_DIR`, else `shared/eval` beside the repository.
    static var folder: URL {
        if let path = ProcessInfo.processInfo.environment["ORIENTD_EVAL_DIR"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        return CommandRunner.repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/eval")
    }

    /// Whether orient_eval.py is in ``folder``.
    static var isPresent: Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("orient_eval.py").path)
    }

    /// Why the tests that need the kit are skipped, for swift-testing's line about each.
    static var absence: Comment {
        "the evaluation kit (orient_eval.py) is not in \(folder.path): set ORIENTD_EVAL_DIR to its folder"
    }
}
