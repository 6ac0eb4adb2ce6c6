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

import Testing

@testable import SensorDevices

/// The text of a held-open raw attribute, as sysfs shows it, parsed without allocating.
@Suite struct RawAttributeTests {
    static func parse(_ text: String) -> Int64? {
        Array(text.utf8).withUnsafeBytes { RawAttribute.parse($0) }
    }

    @Test(arguments: [
        ("0\n", Int64(0)), ("-1000\n", -1000), ("123\n", 123), ("+7\n", 7), ("  -42\n", -42), ("5\n00\n", 5),
        ("9223372036854775807\n", .max), ("-9223372036854775808\n", .min), ("12\0", 12),
    ])
    func readsTheNumberBeforeTheNewline(text: String, value: Int64) {
        #expect(Self.parse(text) == value)
    }

    @Test(arguments: ["", "\n", "-\n", "?\n", "x12\n", "9223372036854775808\n", "-9223372036854775809\n"])
    func refusesTextWithoutANumberThatFits(text: String) {
        #expect(Self.parse(text) == nil)
    }
}
