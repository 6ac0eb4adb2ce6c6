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

/// Where the accelerometer's x, y and z channels and its optional timestamp sit in one buffered
/// scan, computed by the kernel's rule (`iio_compute_scan_bytes` in
/// `drivers/iio/industrialio-buffer.c`).
///
/// The kernel lays the enabled channels out in increasing scan index order, each at the running
/// size aligned up to its own length (`storageBits / 8 × repeatCount`), puts the timestamp after
/// all of them whatever its scan index, and pads the scan to a multiple of the largest length.
public struct ScanLayout: Sendable, Hashable {
    /// An enabled channel as sysfs or libiio describes it: its scan index and format.
    public struct Channel: Sendable, Hashable {
        /// The channel's `scan_elements/*_index`: its rank in the scan, not a byte offset.
        public var scanIndex: Int
        /// The channel's `scan_elements/*_type`.
        public var format: ScanElementFormat

        /// A channel from its scan index and format.
        public init(scanIndex: Int, format: ScanElementFormat) {
            self.scanIndex = scanIndex
            self.format = format
        }
    }

    /// A channel's place in the scan: its byte offset and format.
    public struct Element: Sendable, Hashable {
        /// The byte offset of the channel's first slot from the start of the scan.
        public let offset: Int
        /// How the channel's value is stored there.
        public let format: ScanElementFormat

        /// An element at `offset` with `format`.
        public init(offset: Int, format: ScanElementFormat) {
            self.offset = offset
            self.format = format
        }
    }

    /// The x channel's place.
    public let x: Element
    /// The y channel's place.
    public let y: Element
    /// The z channel's place.
    public let z: Element
    /// The timestamp's place, when the timestamp is enabled.
    public let timestamp: Element?
    /// The number of bytes of one scan, padding included: the stride between scans in the buffer.
    public let scanSize: Int

    /// Whether each scan carries a timestamp.
    @inlinable
    public var hasTimestamp: Bool { timestamp != nil }

    /// The layout of a scan of x, y, z and, when given, the timestamp.
    /// - Throws: ``ScanLayoutError`` when two channels share a scan index or one is negative
    ///   (a channel that cannot be buffered).
    public init(x: Channel, y: Channel, z: Channel, timestamp: Channel? = nil) throws(ScanLayoutError) {
        let named = [("x", x), ("y", y), ("z", z)] + (timestamp.map { [("timestamp", $0)] } ?? [])
        for (name, channel) in named where channel.scanIndex < 0 {
            throw ScanLayoutError(reason: .negativeScanIndex(channel.scanIndex), channels: [name])
        }
        for (position, (name, channel)) in named.enumerated() {
            let sharing = named[(position + 1)...].filter { $0.1.scanIndex == channel.scanIndex }.map(\.0)
            if !sharing.isEmpty {
                throw ScanLayoutError(reason: .duplicateScanIndex(channel.scanIndex), channels: [name] + sharing)
            }
        }

        // The axes in scan index order, then the timestamp: the kernel adds it last.
        let axes = [x, y, z].enumerated().sorted { $0.element.scanIndex < $1.element.scanIndex }
        let ordered = axes.map(\.element.format) + (timestamp.map { [$0.format] } ?? [])
        let placement = Self.kernelPlacement(ofLengths: ordered.map { $0.storageBytes * $0.repeatCount })
        var offsets = [0, 0, 0]
        for (rank, axis) in axes.enumerated() { offsets[axis.offset] = placement.offsets[rank] }

        self.x = Element(offset: offsets[0], format: x.format)
        self.y = Element(offset: offsets[1], format: y.format)
        self.z = Element(offset: offsets[2], format: z.format)
        self.timestamp = timestamp.map { Element(offset: placement.offsets[3], format: $0.format) }
        self.scanSize = placement.size
    }

    /// Decodes the scan at `scan` (any alignment) into raw channel values.
    ///
    /// A repeated channel yields its first value.
    /// - Parameter scan: at least ``scanSize`` readable bytes.
    @inlinable
    public func decode(_ scan: UnsafeRawPointer) -> RawScan {
        RawScan(
            x: x.format.decode(scan + x.offset),
            y: y.format.decode(scan + y.offset),
            z: z.format.decode(scan + z.offset),
            timestamp: timestamp.map { $0.format.decode(scan + $0.offset) }
        )
    }

    /// The kernel's `iio_compute_scan_bytes` for elements of these byte lengths, in the order
    /// the kernel places them.
    /// - Returns: each element's offset and the padded scan size.
    static func kernelPlacement(ofLengths lengths: [Int]) -> (offsets: [Int], size: Int) {
        var size = 0
        var largest = 0
        var offsets: [Int] = []
        offsets.reserveCapacity(lengths.count)
        for length in lengths {
            size = kernelAlign(size, to: length)
            offsets.append(size)
            size += length
            largest = max(largest, length)
        }
        return (offsets, kernelAlign(size, to: largest))
    }

    /// The kernel's `ALIGN(x, a)`, `(x + a - 1) & ~(a - 1)`, bit for bit: it rounds up to a
    /// multiple of a power of two `a`, and to something else (never below `x`) for other `a`
    /// (a repeat of 3), which is what the kernel then uses.
    static func kernelAlign(_ value: Int, to alignment: Int) -> Int {
        guard alignment > 0 else { return value }
        let mask = alignment - 1
        return (value + mask) & ~mask
    }
}

/// Channels that cannot form a scan layout.
public struct ScanLayoutError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the channels.
    public enum Reason: Sendable, Hashable {
        /// Two or more channels have this scan index.
        case duplicateScanIndex(Int)
        /// A channel has this negative scan index (the kernel's mark for a channel with no buffer slot).
        case negativeScanIndex(Int)
    }

    /// What is wrong.
    public var reason: Reason
    /// The channels involved: `x`, `y`, `z` or `timestamp`.
    public var channels: [String]

    /// An error for this reason and these channels.
    public init(reason: Reason, channels: [String]) {
        self.reason = reason
        self.channels = channels
    }

    /// The channels and what is wrong with them.
    public var description: String {
        let names = channels.joined(separator: ", ")
        switch reason {
        case .duplicateScanIndex(let index):
            return "channels \(names) share scan index \(index)"
        case .negativeScanIndex(let index):
            return "channel \(names) has scan index \(index), so it has no place in a buffered scan"
        }
    }
}
