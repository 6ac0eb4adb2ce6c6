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

/// Which raw readings reach the classifier: not 0, 0, 0, and no axis at the limit of its format's range.
@Suite struct RawReadingCheckTests {
    static func check(_ text: String?) -> RawReadingCheck {
        let format = text.map { try! ScanElementFormat(parsing: $0) }
        return RawReadingCheck(x: format, y: format, z: format)
    }

    @Test(arguments: [
        ("le:s16/16>>0", Int64(-32768), Int64(32767)),
        ("le:s12/16>>4", -2048, 2047),
        ("be:s10/16>>6", -512, 511),
        ("le:s16/32>>0", -32768, 32767),
        ("le:u12/16>>0", 0, 4095),
    ])
    func limitsFollowTheFormat(format: String, lower: Int64, upper: Int64) {
        let limits = RawReadingCheck.limits(try! ScanElementFormat(parsing: format))
        #expect(limits.0 == lower && limits.1 == upper)
        let check = Self.check(format)
        #expect(check.quality(x: upper, y: 1, z: 1) == .saturated)
        #expect(check.quality(x: 1, y: lower, z: 1) == .saturated)
        #expect(check.quality(x: 1, y: 1, z: upper) == .saturated)
        #expect(check.quality(x: upper - 1, y: lower + 1, z: 1) == .usable)
    }

    @Test func zeroOnEveryAxisIsNoReading() {
        let check = Self.check("le:s16/16>>0")
        #expect(check.quality(x: 0, y: 0, z: 0) == .zero)
        #expect(check.quality(x: 0, y: -1000, z: 0) == .usable)
        #expect(check.quality(x: 0, y: 0, z: 1) == .usable)
    }

    /// Without a scan format (a poll-only device) nothing is called saturated: the range is unknown.
    @Test func withoutAFormatOnlyZerosAreRejected() {
        let check = Self.check(nil)
        #expect(check.quality(x: 32767, y: -32768, z: 1_000_000) == .usable)
        #expect(check.quality(x: 0, y: 0, z: 0) == .zero)
    }
}
