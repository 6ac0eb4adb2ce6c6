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

import OrientdTestKit
import Testing

/// The fixture's own checks, no testbed needed: scan bytes computed by hand from the kernel ABI, and the shape of
/// the description text.
@Suite struct FixtureTests {
    static func fixture(_ type: String, order: [Axis] = [.x, .y, .z]) -> AccelerometerFixture {
        AccelerometerFixture(scanType: type, order: order, timestamp: true)
    }

    @Test func littleEndian16() {
        #expect(
            Self.fixture("le:s16/16>>0").encodeScan(x: 1, y: -2, z: 0x1234) == [0x01, 0x00, 0xfe, 0xff, 0x34, 0x12]
        )
    }

    @Test func twelveBitsShiftedByFour() {
        var fixture = Self.fixture("le:s12/16>>4")
        #expect(fixture.encodeScan(x: -1, y: 0x7ff, z: -2048) == [0xf0, 0xff, 0xf0, 0x7f, 0x00, 0x80])
        fixture.unusedBits = 0x000f
        #expect(fixture.encodeScan(x: -1, y: 0, z: 1) == [0xff, 0xff, 0x0f, 0x00, 0x1f, 0x00])
    }

    @Test func bigEndian12() {
        #expect(Self.fixture("be:s12/16>>4").encodeScan(x: 0x123, y: -1, z: 0) == [0x12, 0x30, 0xff, 0xf0, 0x00, 0x00])
    }

    @Test func bigEndian32WithTimestampAlignedToEight() {
        let scan = Self.fixture("be:s32/32>>0").encodeScan(
            x: 1,
            y: -1,
            z: 0x0102_0304,
            timestamp: 0x1122_3344_5566_7788
        )
        let axes: [UInt8] = [0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4]
        let padding: [UInt8] = [0, 0, 0, 0]
        let timestamp: [UInt8] = [0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11]
        #expect(scan == axes + padding + timestamp)
    }

    @Test func indexOrderAndPaddingByte() {
        var fixture = Self.fixture("le:s16/16>>0", order: [.z, .x, .y])
        fixture.paddingByte = 0xaa
        let scan = fixture.encodeScan(x: 0x0101, y: 0x0202, z: 0x0303, timestamp: -1)
        #expect(scan == [0x03, 0x03, 0x01, 0x01, 0x02, 0x02, 0xaa, 0xaa] + Array(repeating: 0xff, count: 8))
        #expect(fixture.encodeScan(x: 0, y: 0, z: 0).count == 6)
    }

    @Test func sixteenBitsInThirtyTwoWithJunk() {
        var fixture = Self.fixture("le:s16/32>>0")
        fixture.unusedBits = 0xdead_0000
        #expect(
            fixture.encodeScan(x: -1, y: 2, z: 0) == [0xff, 0xff, 0xad, 0xde, 0x02, 0x00, 0xad, 0xde, 0, 0, 0xad, 0xde]
        )
    }

    @Test func scanPaddedToTheLargestElement() {
        let scan = Self.fixture("le:u8/8>>0").encodeScan(x: 1, y: 2, z: 255, timestamp: 5)
        #expect(scan == [1, 2, 255, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0])
    }

    @Test(arguments: ["le:s16/16>>0", "le:s12/16>>4", "be:s12/16>>4", "le:s10/16>>6", "le:s16/32>>0", "be:u32/32>>0"])
    func typeTextRoundTrips(text: String) throws {
        #expect(try #require(ScanElementType(text)).description == text)
    }

    @Test func typeParsing() throws {
        let type = try #require(ScanElementType("be:u12/16X2>>4"))
        #expect(
            type
                == ScanElementType(
                    endianness: .big,
                    isSigned: false,
                    bits: 12,
                    storageBits: 16,
                    shift: 4,
                    repeatCount: 2
                )
        )
        #expect(ScanElementType("s16/16>>0") == nil)
        #expect(ScanElementType("le:x16/16>>0") == nil)
        #expect(ScanElementType("le:s12/16>>4")?.range == -2048...2047)
        #expect(ScanElementType("le:s64/64>>0")?.range == Int64.min...Int64.max)
    }

    @Test func everyAttributeEndsInANewline() {
        var fixture = AccelerometerFixture()
        fixture.locations = [.label: "accel-base"]
        let attributeLines = fixture.description.split(separator: "\n").filter { $0.hasPrefix("A: ") }
        #expect(attributeLines.count > 20)
        #expect(attributeLines.allSatisfy { $0.hasSuffix("\\n") })
        #expect(attributeLines.contains("A: trigger/current_trigger=\\n"))
    }

    @Test func pollOnlyHasNoNodeNoDevNoBuffer() {
        var fixture = AccelerometerFixture()
        fixture.capture = .pollOnly
        fixture.trigger = .none
        let lines = fixture.description.split(separator: "\n")
        #expect(!lines.contains { $0.hasPrefix("N: ") || $0.hasPrefix("E: DEVNAME=") || $0.hasPrefix("A: dev=") })
        #expect(!lines.contains { $0.contains("buffer/") || $0.contains("scan_elements/") || $0.contains("trigger") })
        #expect(lines.filter { $0.hasPrefix("P: ") }.count == 1)
    }

    @Test func triggerNames() {
        var fixture = AccelerometerFixture()
        fixture.deviceNumber = 2
        #expect(fixture.triggerName == "accel_3d-dev2")
        #expect(fixture.triggerSyspath == "/sys/devices/platform/accel-test/trigger2")
        fixture.name = "lis3dh_accel"
        fixture.trigger = .nameSuffixed
        #expect(fixture.triggerName == "lis3dh_accel-trigger")
        fixture.trigger = .none
        #expect(fixture.triggerDescription == nil)
    }
}
