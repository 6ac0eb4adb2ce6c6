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
/// close. A remote context (or a file that cannot be opened at first) reads through libiio.
///
/// A held descriptor keeps reading the file it was opened on. sysfs never replaces its files, but a test rig
/// may (umockdev's `set_attribute` writes a new file and renames it over the old one), and a reader that never
/// looked again would read the old value forever. So its owner calls ``reopenIfReplaced()`` now and then (not on
/// every read): one stat(2) of the path, and a new descriptor when the path names another file. The same look finds a
/// device whose sysfs folder went with no read failing (a held file of a removed folder may still read its last text).
struct RawAttribute {
    private let channel: IIOChannel
    /// The attribute's file, nil to read through libiio.
    private let path: String?
    /// The device's sysfs folder, which holds the file; nil to read through libiio.
    private let folder: String?
    /// Where reads go now.
    private var source: Source
    /// The longest text a 64-bit value with its sign, newline and a NUL can take.
    private static let capacity = 32

    /// Where reads go.
    private enum Source {
        /// libiio, which opens, reads and closes the file each time.
        case libiio
        /// The file held open, and which file it is.
        case held(FileDescriptor, FileIdentity)
        /// The path names a file that could not be opened (no rights, say): reads fail with the errno
        /// of open(2) until ``reopenIfReplaced()`` opens it.
        case unopenable(Errno)
    }

    /// Opens `channel`'s `raw` attribute under `syspath` (the device's sysfs folder) when there is one.
    init(channel: IIOChannel, syspath: String?) {
        self.channel = channel
        guard let syspath, let file = iio_channel_attr_get_filename(channel.pointer, "raw") else {
            path = nil
            folder = nil
            source = .libiio
            return
        }
        let path = syspath + "/" + String(cString: file)
        self.path = path
        folder = syspath
        source = (try? Self.held(path)) ?? .libiio
    }

    /// Whether reads go straight to a held file.
    var isHeldOpen: Bool {
        if case .held = source { return true }
        return false
    }

    /// Closes the file; reads must not follow.
    func close() {
        if case .held(let file, _) = source { file.close() }
    }

    /// Opens the file again when the path now names another file than the one held (or one that could not be
    /// opened before): one stat(2), and open(2) only after a change. A path that names nothing keeps what it
    /// has, so that a file removed and made again is read from the new one once it is there; unless the device's
    /// folder went too (one more stat(2), only then): the device is gone.
    /// - Throws: ``SensorError`` of kind `deviceGone` when the device's sysfs folder is no longer there.
    mutating func reopenIfReplaced() throws(SensorError) {
        guard let path else { return }
        var old: FileDescriptor?
        switch source {
        case .libiio:
            return
        case .held(let file, let identity):
            let now: FileIdentity
            do throws(Errno) {
                now = try FileIdentity(ofFileAt: path)
            } catch {
                try checkFolder(after: error)
                return
            }
            guard now != identity else { return }
            old = file
        case .unopenable:
            break
        }
        do throws(Errno) {
            source = try Self.held(path)
        } catch {
            // Gone between the stat and the open: keep what there was until the next look, unless the device went.
            guard !error.isDeviceGone else {
                try checkFolder(after: error)
                return
            }
            source = .unopenable(error)
        }
        old?.close()
    }

    /// The file is not there (`error`, of stat(2) or open(2)): replaced in two steps, or gone with its device.
    /// - Throws: ``SensorError`` of kind `deviceGone` when the device's folder is gone too.
    private func checkFolder(after error: Errno) throws(SensorError) {
        guard error.isDeviceGone, let folder else { return }
        do throws(Errno) {
            _ = try FileIdentity(ofFileAt: folder)
        } catch {
            guard error.isDeviceGone else { return }
            throw SensorError(
                .deviceGone,
                operation: "stat(\(channel.id) raw)",
                device: channel.device.id,
                errno: error,
                detail: "the device's sysfs folder is gone"
            )
        }
    }

    /// The file at `path` held open.
    /// - Throws: the errno of open(2) or fstat(2).
    private static func held(_ path: String) throws(Errno) -> Source {
        let file = try FileDescriptor.open(path)
        do throws(Errno) {
            return .held(file, try FileIdentity(of: file))
        } catch {
            file.close()
            throw error
        }
    }

    /// Reads the attribute: one `pread` (no allocation) for a held file, libiio otherwise.
    /// - Throws: ``SensorError`` naming the channel, with errno when the read failed, or with the text's fault.
    func read() throws(SensorError) -> Int64 {
        let file: FileDescriptor
        switch source {
        case .held(let held, _):
            file = held
        case .libiio:
            return try readThroughLibiio()
        case .unopenable(let error):
            throw SensorError.call("open(\(channel.id) raw)", device: channel.device.id, errno: error)
        }
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
