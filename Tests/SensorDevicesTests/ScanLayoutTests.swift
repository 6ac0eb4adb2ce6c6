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

/// The byte layout of a scan by the kernel's rule (`iio_compute_scan_bytes`): increasing scan
/// index, each element aligned to its length, the timestamp last, the scan padded to the largest.
@Suite struct ScanLayoutTests {
    static func format(_ text: String) -> ScanElementFormat {
        try! ScanElementFormat(parsing: text)
    }

    static func channel(_ scanIndex: Int, _ text: String) -> ScanLayout.Channel {
        ScanLayout.Channel(scanIndex: scanIndex, format: format(text))
    }

    /// A layout case: channels (index, format) for x, y, z and the timestamp, and the expected
    /// offsets and size.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var x: (Int, String)
        var y: (Int, String)
        var z: (Int, String)
        var timestamp: (Int, String)?
        var offsets: (x: Int, y: Int, z: Int, timestamp: Int?)
        var scanSize: Int

        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "s16 x, y, z and an s64 timestamp",
            x: (0, "le:s16/16>>0"),
            y: (1, "le:s16/16>>0"),
            z: (2, "le:s16/16>>0"),
            timestamp: (3, "le:s64/64>>0"),
            offsets: (0, 2, 4, 8),
            scanSize: 16
        ),
        Case(
            name: "s16 x, y, z without a timestamp",
            x: (0, "le:s16/16>>0"),
            y: (1, "le:s16/16>>0"),
            z: (2, "le:s16/16>>0"),
            offsets: (0, 2, 4, nil),
            scanSize: 6
        ),
        Case(
            name: "s32 x, y, z",
            x: (0, "le:s32/32>>0"),
            y: (1, "le:s32/32>>0"),
            z: (2, "le:s32/32>>0"),
            offsets: (0, 4, 8, nil),
            scanSize: 12
        ),
        Case(
            name: "s32 x, y, z and a timestamp",
            x: (0, "le:s32/32>>0"),
            y: (1, "le:s32/32>>0"),
            z: (2, "le:s32/32>>0"),
            timestamp: (3, "le:s64/64>>0"),
            offsets: (0, 4, 8, 16),
            scanSize: 24
        ),
        Case(
            name: "s16 in 32-bit slots and a timestamp",
            x: (0, "le:s16/32>>0"),
            y: (1, "le:s16/32>>0"),
            z: (2, "le:s16/32>>0"),
            timestamp: (3, "le:s64/64>>0"),
            offsets: (0, 4, 8, 16),
            scanSize: 24
        ),
        Case(
            name: "z=0, x=1, y=2",
            x: (1, "le:s16/16>>0"),
            y: (2, "le:s16/16>>0"),
            z: (0, "le:s16/16>>0"),
            timestamp: (3, "le:s64/64>>0"),
            offsets: (2, 4, 0, 8),
            scanSize: 16
        ),
        Case(
            name: "y=0, z=1, x=2 big-endian s12",
            x: (2, "be:s12/16>>4"),
            y: (0, "be:s12/16>>4"),
            z: (1, "be:s12/16>>4"),
            offsets: (4, 0, 2, nil),
            scanSize: 6
        ),
        Case(
            name: "scan indices with gaps",
            x: (5, "le:s12/16>>4"),
            y: (3, "le:s12/16>>4"),
            z: (9, "le:s12/16>>4"),
            timestamp: (10, "le:s64/64>>0"),
            offsets: (2, 0, 4, 8),
            scanSize: 16
        ),
        Case(
            name: "timestamp with a lower scan index still goes last",
            x: (1, "le:s16/16>>0"),
            y: (2, "le:s16/16>>0"),
            z: (3, "le:s16/16>>0"),
            timestamp: (0, "le:s64/64>>0"),
            offsets: (0, 2, 4, 8),
            scanSize: 16
        ),
        Case(
            name: "u8 x, y, z and a timestamp",
            x: (0, "le:u8/8>>0"),
            y: (1, "le:u8/8>>0"),
            z: (2, "le:u8/8>>0"),
            timestamp: (3, "le:s64/64>>0"),
            offsets: (0, 1, 2, 8),
            scanSize: 16
        ),
        Case(
            name: "mixed s8, s32, s16",
            x: (0, "le:s8/8>>0"),
            y: (1, "le:s32/32>>0"),
            z: (2, "le:s16/16>>0"),
            offsets: (0, 4, 8, nil),
            scanSize: 12
        ),
        Case(
            name: "a repeated x aligns to its whole length",
            x: (0, "le:s16/16X2>>0"),
            y: (1, "le:s16/16>>0"),
            z: (2, "le:s16/16>>0"),
            offsets: (0, 4, 6, nil),
            scanSize: 8
        ),
        Case(
            name: "s8, a repeated s16 of 4 bytes, s8",
            x: (0, "le:s8/8>>0"),
            y: (1, "le:s16/16X2>>0"),
            z: (2, "le:s8/8>>0"),
            offsets: (0, 4, 8, nil),
            scanSize: 12
        ),
    ]

    @Test(arguments: cases)
    func placesChannelsAsTheKernelDoes(expected: Case) throws {
        let layout = try ScanLayout(
            x: Self.channel(expected.x.0, expected.x.1),
            y: Self.channel(expected.y.0, expected.y.1),
            z: Self.channel(expected.z.0, expected.z.1),
            timestamp: expected.timestamp.map { Self.channel($0.0, $0.1) }
        )
        #expect(layout.x.offset == expected.offsets.x)
        #expect(layout.y.offset == expected.offsets.y)
        #expect(layout.z.offset == expected.offsets.z)
        #expect(layout.timestamp?.offset == expected.offsets.timestamp)
        #expect(layout.hasTimestamp == (expected.timestamp != nil))
        #expect(layout.scanSize == expected.scanSize)
        #expect(layout.x.format == Self.format(expected.x.1))
        #expect(layout.y.format == Self.format(expected.y.1))
        #expect(layout.z.format == Self.format(expected.z.1))
        #expect(layout.timestamp?.format == expected.timestamp.map { Self.format($0.1) })
    }

    /// The kernel's rule on element lengths in placement order, including sets that x, y and z
    /// cannot form.
    @Test(arguments: [
        ([2, 8], [0, 8], 16),  // an s16 x and an s64 timestamp only
        ([2], [0], 2),
        ([1, 1, 1], [0, 1, 2], 3),
        ([2, 2, 2], [0, 2, 4], 6),
        ([1, 4], [0, 4], 8),
        ([4, 2], [0, 4], 8),
        ([8, 1], [0, 8], 16),
        ([16, 2], [0, 16], 32),  // le:s32/32X4 (a quaternion), then an s16
        // A repeat of 3 gives a length of 6, which the kernel's ALIGN does not round to a multiple
        // of 6: (8 + 5) & ~5 == 8.
        ([6, 2], [0, 6], 8),
    ])
    func kernelPlacement(lengths: [Int], offsets: [Int], size: Int) {
        let placement = ScanLayout.kernelPlacement(ofLengths: lengths)
        #expect(placement.offsets == offsets)
        #expect(placement.size == size)
    }

    @Test func rejectsSharedScanIndices() {
        #expect {
            try ScanLayout(
                x: Self.channel(0, "le:s16/16>>0"),
                y: Self.channel(0, "le:s16/16>>0"),
                z: Self.channel(2, "le:s16/16>>0")
            )
        } throws: { error in
            (error as? ScanLayoutError) == ScanLayoutError(reason: .duplicateScanIndex(0), channels: ["x", "y"])
        }
        #expect {
            try ScanLayout(
                x: Self.channel(0, "le:s16/16>>0"),
                y: Self.channel(1, "le:s16/16>>0"),
                z: Self.channel(2, "le:s16/16>>0"),
                timestamp: Self.channel(2, "le:s64/64>>0")
            )
        } throws: { error in
            guard let error = error as? ScanLayoutError else { return false }
            return error == ScanLayoutError(reason: .duplicateScanIndex(2), channels: ["z", "timestamp"])
                && String(describing: error) == "channels z, timestamp share scan index 2"
        }
        #expect {
            try ScanLayout(
                x: Self.channel(4, "le:s16/16>>0"),
                y: Self.channel(4, "le:s16/16>>0"),
                z: Self.channel(4, "le:s16/16>>0")
            )
        } throws: { error in
            (error as? ScanLayoutError) == ScanLayoutError(reason: .duplicateScanIndex(4), channels: ["x", "y", "z"])
        }
    }

    @Test func rejectsANegativeScanIndex() {
        #expect {
            try ScanLayout(
                x: Self.channel(0, "le:s16/16>>0"),
                y: Self.channel(-1, "le:s16/16>>0"),
                z: Self.channel(2, "le:s16/16>>0")
            )
        } throws: { error in
            (error as? ScanLayoutError) == ScanLayoutError(reason: .negativeScanIndex(-1), channels: ["y"])
        }
    }

    @Test func decodesAScanWithATimestamp() throws {
        let layout = try ScanLayout(
            x: Self.channel(0, "le:s16/16>>0"),
            y: Self.channel(1, "le:s16/16>>0"),
            z: Self.channel(2, "le:s16/16>>0"),
            timestamp: Self.channel(3, "le:s64/64>>0")
        )
        let scan: [UInt8] = [
            0x34, 0x12,  // x 4660
            0xFF, 0xFF,  // y -1
            0x00, 0x80,  // z -32768
            0xAA, 0xAA,  // padding
            0x00, 0xCA, 0x9A, 0x3B, 0x00, 0x00, 0x00, 0x00,  // 1_000_000_000 ns
        ]
        #expect(scan.count == layout.scanSize)
        let raw = scan.withUnsafeBytes { layout.decode($0.baseAddress!) }
        #expect(raw == RawScan(x: 4660, y: -1, z: -32768, timestamp: 1_000_000_000))
    }

    @Test func decodesAScanInScanIndexOrder() throws {
        // z=0, x=1, y=2, big-endian 12-bit values shifted by 4, no timestamp.
        let layout = try ScanLayout(
            x: Self.channel(1, "be:s12/16>>4"),
            y: Self.channel(2, "be:s12/16>>4"),
            z: Self.channel(0, "be:s12/16>>4")
        )
        let scan: [UInt8] = [
            0x7F, 0xF0,  // z 2047
            0xFF, 0xF3,  // x -1 (junk below the shift)
            0x00, 0x1F,  // y 1
        ]
        #expect(scan.count == layout.scanSize)
        let raw = scan.withUnsafeBytes { layout.decode($0.baseAddress!) }
        #expect(raw == RawScan(x: -1, y: 1, z: 2047, timestamp: nil))
    }

    @Test func decodesConsecutiveScansAtAnyAlignment() throws {
        // s16 values in 32-bit slots whose upper halves hold junk, then a timestamp.
        let layout = try ScanLayout(
            x: Self.channel(0, "le:s16/32>>0"),
            y: Self.channel(1, "le:s16/32>>0"),
            z: Self.channel(2, "le:s16/32>>0"),
            timestamp: Self.channel(3, "le:s64/64>>0")
        )
        let first: [UInt8] = [
            0x34, 0x12, 0xAB, 0xCD,  // x 4660
            0xFF, 0xFF, 0x00, 0x00,  // y -1
            0x01, 0x80, 0x12, 0x34,  // z -32767
            0xEE, 0xEE, 0xEE, 0xEE,  // padding
            0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,  // 1 ns
        ]
        let second: [UInt8] = [
            0x00, 0x00, 0xFF, 0xFF,  // x 0
            0x64, 0x00, 0x00, 0x00,  // y 100
            0x9C, 0xFF, 0x00, 0x00,  // z -100
            0x00, 0x00, 0x00, 0x00,  // padding
            0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F,  // Int64.max ns
        ]
        #expect(layout.scanSize == 24)
        for misalignment in [0, 1, 3] {
            let buffer = [UInt8](repeating: 0x77, count: misalignment) + first + second
            let scans = buffer.withUnsafeBytes { bytes in
                let start = bytes.baseAddress! + misalignment
                return [layout.decode(start), layout.decode(start + layout.scanSize)]
            }
            #expect(
                scans == [
                    RawScan(x: 4660, y: -1, z: -32767, timestamp: 1),
                    RawScan(x: 0, y: 100, z: -100, timestamp: Int64.max),
                ],
                "at offset \(misalignment)"
            )
        }
    }
}
