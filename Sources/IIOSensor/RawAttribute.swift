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

import CLibIIO
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// One channel's `raw` attribute, read as an integer on every poll.
///
/// On a local context it is a sysfs file held open: each read is one `pread` at offset 0, which makes the
/// kernel show the attribute afresh, so a tick costs that one system call instead of libiio's open, read and
/// close. A remote context (or a file that cannot be opened) reads through libiio.
struct RawAttribute {
    private let channel: IIOChannel
    /// The open file, or nil to read through libiio.
    private let file: FileDescriptor?
    /// The longest text a 64-bit value with its sign, newline and a NUL can take.
    private static let capacity = 32

    /// Opens `channel`'s `raw` attribute under `syspath` (the device's sysfs folder) when there is one.
    init(channel: IIOChannel, syspath: String?) {
        self.channel = channel
        guard let syspath, let file = iio_channel_attr_get_filename(channel.pointer, "raw") else {
            self.file = nil
            return
        }
        self.file = try? FileDescriptor.open(syspath + "/" + String(cString: file))
    }

    /// Whether reads go straight to the held file.
    var isHeldOpen: Bool { file != nil }

    /// Closes the file; reads must not follow.
    func close() {
        file?.close()
    }

    /// Reads the attribute: one `pread` (no allocation) for a held file, libiio otherwise.
    /// - Throws: ``SensorError`` naming the channel, with errno when the read failed, or with the text's fault.
    func read() throws(SensorError) -> Int64 {
        guard let file else { return try readThroughLibiio() }
        var failure: Int32 = 0
        let outcome = withUnsafeTemporaryAllocation(byteCount: Self.capacity, alignment: 1) { bytes -> Int64? in
            let count: Int
            do throws(Errno) {
                count = try file.read(into: bytes, atOffset: 0)
            } catch {
                failure = error.rawValue
                return nil
            }
            return Self.parse(UnsafeRawBufferPointer(rebasing: bytes[0..<count]))
        }
        if let value = outcome { return value }
        throw SensorError.call(
            "pread(\(channel.id) raw)",
            device: channel.device.id,
            errno: Errno(failure == 0 ? EIO : failure),
            detail: failure == 0 ? "empty or not a number" : nil
        )
    }

    /// Reads through libiio (`iio_channel_attr_read_longlong`): opens, reads and closes the file each time.
    private func readThroughLibiio() throws(SensorError) -> Int64 {
        var value: Int64 = 0
        let result = iio_channel_attr_read_longlong(channel.pointer, "raw", &value)
        guard result >= 0 else {
            throw SensorError.call(
                "iio_channel_attr_read_longlong(\(channel.id) raw)",
                device: channel.device.id,
                errno: Errno(result)
            )
        }
        return value
    }

    /// A decimal integer as sysfs shows it: optional blanks, an optional sign, digits, then anything (the newline).
    /// Nil without digits or when it does not fit 64 bits.
    static func parse(_ text: UnsafeRawBufferPointer) -> Int64? {
        var index = 0
        while index < text.count, text[index] == UInt8(ascii: " ") || text[index] == UInt8(ascii: "\t") {
            index += 1
        }
        var negative = false
        if index < text.count, text[index] == UInt8(ascii: "-") || text[index] == UInt8(ascii: "+") {
            negative = text[index] == UInt8(ascii: "-")
            index += 1
        }
        var value: Int64 = 0
        var digits = 0
        while index < text.count, text[index] >= UInt8(ascii: "0"), text[index] <= UInt8(ascii: "9") {
            let digit = Int64(text[index] - UInt8(ascii: "0"))
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) =
                negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
            guard !overflow, !carry else { return nil }
            value = sum
            digits += 1
            index += 1
        }
        return digits > 0 ? value : nil
    }
}
