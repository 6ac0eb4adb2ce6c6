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

/// How many times each reliability scenario runs (docs/reliability.md): `ORIENTD_RELIABILITY_RUNS`, 1 unless set.
/// A long run raises it (`ORIENTD_RELIABILITY_RUNS=20 make reliability`); each run is a test case of its own, and a
/// scenario that draws at random draws with a seed of its own in each run, the first run's being the suite's seed.
package enum Reliability {
    /// The environment variable that sets the count.
    package static let variable = "ORIENTD_RELIABILITY_RUNS"

    /// The runs, 1 to the count: the arguments of a repeated test. A count that is not a whole number of at least
    /// 1 stops the test process with a message that names it, before any test runs.
    package static let runs: ClosedRange<Int> = {
        guard let text = ProcessInfo.processInfo.environment[variable], !text.isEmpty else { return 1...1 }
        guard let count = Int(text.trimmingCharacters(in: .whitespaces)), count >= 1 else {
            fatalError("\(variable)=\(text): the count of reliability runs must be a whole number of at least 1")
        }
        return 1...count
    }()

    /// The seed of `run` for a scenario whose first run draws with `seed`.
    package static func seed(_ seed: UInt64, run: Int) -> UInt64 {
        seed &+ UInt64(run - 1) &* 0x9E37_79B9_7F4A_7C15
    }
}
