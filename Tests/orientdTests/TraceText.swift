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

/// Builds trace text (CLASSIFIER.md format) from steady segments, for tests.
struct TraceText {
    private(set) var text = "# orientd-trace 1\n# rate_hz=50\nt,x,y,z\n"
    private var time = 0.0
    private let interval = 1.0 / 50

    /// Appends `seconds` of samples at 50 Hz holding the vector (x, y, z) in m/s².
    mutating func hold(_ seconds: Double, x: Double, y: Double, z: Double) {
        let count = Int((seconds / interval).rounded())
        for index in 0..<count {
            // A small deterministic wobble, as a hand adds.
            let wobble = 0.05 * Double((index * 7) % 5 - 2)
            text += "\(time),\(x + wobble),\(y - wobble),\(z)\n"
            time += interval
        }
    }

    /// 9.80665 m/s².
    static let g = 9.80665
}
