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

extension Pose {
    /// The pose whose edge is highest for the (x, y) of a reading: the largest of (−y, −x, y, x).
    static func nearest(x: Double, y: Double) -> Pose {
        var best = Pose.normal
        var bestComponent = -y
        if -x > bestComponent {
            best = .rightUp
            bestComponent = -x
        }
        if y > bestComponent {
            best = .bottomUp
            bestComponent = y
        }
        if x > bestComponent {
            best = .leftUp
        }
        return best
    }

    /// How far up this pose's edge points for the (x, y) of a reading: −y, −x, y or x.
    func component(x: Double, y: Double) -> Double {
        switch self {
        case .normal: -y
        case .rightUp: -x
        case .bottomUp: y
        case .leftUp: x
        }
    }
}
