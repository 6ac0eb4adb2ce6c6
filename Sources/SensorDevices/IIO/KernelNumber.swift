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

import IniFormat
/// Parses a number written by the kernel (`0.009806650`, `-12`, `1e-3`), the same way in every locale.
enum KernelNumber {
    static func parse(_ text: String, attribute: String, device: String) throws(SensorError) -> Double {
        let trimmed = text.trimmingWhitespace()
        guard let value = Double(trimmed), value.isFinite else {
            throw SensorError(
                .badAttribute,
                operation: attribute,
                device: device,
                detail: "'\(trimmed)' is not a number"
            )
        }
        return value
    }
}
