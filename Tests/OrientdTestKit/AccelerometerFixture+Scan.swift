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

extension AccelerometerFixture {
    /// The bytes of one scan as the kernel lays it out for this fixture, with x, y, z (and the timestamp, when
    /// given) enabled: channels in scan-index order, each aligned to its storage size, the scan padded to a
    /// multiple of the largest (`iio_compute_scan_bytes`). The oracle for the decoder: written from the ABI alone.
    /// - Parameter timestamp: nanoseconds; nil when the timestamp channel is not enabled (or does not exist).
    package func encodeScan(x: Int64, y: Int64, z: Int64, timestamp: Int64? = nil) -> [UInt8] {
        var enabled: [(ScanElement, Int64)] = [(axes.x, x), (axes.y, y), (axes.z, z)]
        if let timestamp {
            guard let element = self.timestamp else { preconditionFailure("the fixture has no timestamp channel") }
            enabled.append((element, timestamp))
        }
        enabled.sort { $0.0.index < $1.0.index }
        var scan: [UInt8] = []
        var largest = 1
        for (element, value) in enabled {
            let size = element.type.storageBytes
            scan += Array(repeating: paddingByte, count: (size - scan.count % size) % size)
            scan += element.type.encode(value, unusedBits: unusedBits)
            largest = max(largest, size)
        }
        scan += Array(repeating: paddingByte, count: (largest - scan.count % largest) % largest)
        return scan
    }

    /// The bytes of consecutive scans, one per sample.
    package func encodeScans(_ samples: [AxisValues<Int64>], timestamps: [Int64]? = nil) -> [UInt8] {
        samples.indices.flatMap { index in
            encodeScan(
                x: samples[index].x,
                y: samples[index].y,
                z: samples[index].z,
                timestamp: timestamps?[index]
            )
        }
    }
}
