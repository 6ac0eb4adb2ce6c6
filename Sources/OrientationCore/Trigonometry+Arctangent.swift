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

extension Trigonometry {
    /// The angle of the point (x, y) from the positive x axis, in degrees in (−180°, 180°]; 0 at the origin.
    ///
    /// As `atan2(y, x)`, without the C library: the ratio is reduced to [0, 1] by symmetry, then below
    /// tan 15° by the addition formula around 30°, where the arctangent's series converges fast.
    static func arctangent(y: Double, x: Double) -> Double {
        if x == 0 && y == 0 { return 0 }
        let ax = x.magnitude
        let ay = y.magnitude
        // The angle in [0°, 90°] of (|x|, |y|).
        var angle = ay <= ax ? reducedArctangent(ay / ax) : 90 - reducedArctangent(ax / ay)
        if x < 0 { angle = 180 - angle }
        return y < 0 ? -angle : angle
    }

    private static let tangent15 = 0.267_949_192_431_122_7
    private static let inverseSquareRoot3 = 0.577_350_269_189_625_8

    /// arctan(t) in degrees for t in [0, 1].
    private static func reducedArctangent(_ t: Double) -> Double {
        if t <= tangent15 { return series(t) * (180 / Double.pi) }
        // arctan t = 30° + arctan((t − 1/√3) / (1 + t/√3)), and that argument lies in (−tan 15°, tan 15°].
        let shifted = (t - inverseSquareRoot3) / (1 + t * inverseSquareRoot3)
        return 30 + series(shifted) * (180 / Double.pi)
    }

    /// arctan(u) in radians for |u| ≤ tan 15°, by its series (the 14 terms used reach below 1e−16).
    private static func series(_ u: Double) -> Double {
        let square = u * u
        var power = u
        var sum = u
        var sign = -1.0
        var denominator = 3.0
        for _ in 0..<14 {
            power *= square
            sum += sign * power / denominator
            sign = -sign
            denominator += 2
        }
        return sum
    }
}
