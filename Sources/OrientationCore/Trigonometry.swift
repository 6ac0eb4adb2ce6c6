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

/// Sine and cosine of an angle in degrees, for thresholds computed once from the configuration.
///
/// The standard library has no trigonometry and this module imports nothing else; a Taylor
/// series after reduction to [−45°, 45°] is exact to the last few bits, which is plenty for thresholds.
enum Trigonometry {
    static func sine(degrees: Double) -> Double {
        // Reduce to [0, 360), then to a quadrant and an offset in [-45, 45].
        var angle = degrees.truncatingRemainder(dividingBy: 360)
        if angle < 0 { angle += 360 }
        let quadrant = Int((angle / 90).rounded()) % 4
        let offset = (angle - Double(quadrant) * 90) * (Double.pi / 180)
        switch quadrant {
        case 0: return series(offset, startingWithSine: true)
        case 1: return series(offset, startingWithSine: false)
        case 2: return -series(offset, startingWithSine: true)
        default: return -series(offset, startingWithSine: false)
        }
    }

    static func cosine(degrees: Double) -> Double {
        sine(degrees: degrees + 90)
    }

    /// sin(x) or cos(x) for |x| ≤ π/4 by their Taylor series.
    private static func series(_ x: Double, startingWithSine: Bool) -> Double {
        var term = startingWithSine ? x : 1
        var sum = term
        var n: Double = startingWithSine ? 1 : 0
        for _ in 0..<12 {
            term *= -x * x / ((n + 1) * (n + 2))
            n += 2
            sum += term
        }
        return sum
    }
}
