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

/// What a raw reading says about the sensor before it is calibrated: a reading of 0 on every axis is a
/// sensor that is powered down or not measuring, and a reading at the limit of an axis's range is
/// clipped (the true value lies beyond it), so its direction is wrong. Neither reaches the classifier.
enum ReadingQuality: Sendable, Hashable {
    case usable
    /// 0, 0, 0.
    case zero
    /// At least one axis at the smallest or largest value its format can hold.
    case saturated
}
