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

/// The limits of the raw values of the three axes, from their scan element formats.
struct RawReadingCheck: Sendable {
    private let lower: (Int64, Int64, Int64)
    private let upper: (Int64, Int64, Int64)

    /// Limits from the formats of x, y and z; an axis without a known format is never saturated.
    init(x: ScanElementFormat?, y: ScanElementFormat?, z: ScanElementFormat?) {
        let limits = [x, y, z].map(Self.limits)
        lower = (limits[0].0, limits[1].0, limits[2].0)
        upper = (limits[0].1, limits[1].1, limits[2].1)
    }

    /// The smallest and largest values of a format (`le:s12/16>>4`: -2048 and 2047).
    static func limits(_ format: ScanElementFormat?) -> (Int64, Int64) {
        guard let format, format.bits < 64 else { return (.min, .max) }
        if format.isSigned {
            let half = Int64(1) << (format.bits - 1)
            return (-half, half - 1)
        }
        return (0, (Int64(1) << format.bits) - 1)
    }

    /// Classifies one raw reading. No allocation.
    @inline(__always)
    func quality(x: Int64, y: Int64, z: Int64) -> ReadingQuality {
        if x == 0 && y == 0 && z == 0 { return .zero }
        if x <= lower.0 || x >= upper.0 || y <= lower.1 || y >= upper.1 || z <= lower.2 || z >= upper.2 {
            return .saturated
        }
        return .usable
    }
}
