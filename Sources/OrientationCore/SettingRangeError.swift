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

/// A setting of the core outside its allowed range: the classifier's and the hinge's thresholds.
public struct SettingRangeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The configuration key (`FilterMs`, `DwellMs`, `FaceUpAngle`, `TabletAngle`, `LaptopAngle`).
    public var key: String
    /// The rejected value.
    public var value: Int
    /// The allowed range.
    public var range: ClosedRange<Int>

    public var description: String {
        "\(key)=\(value) is out of range; allowed: \(range.lowerBound)–\(range.upperBound)"
    }
}
