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

import Foundation
import Glibc
import SystemSupport

/// Sends libudev monitor messages to the event sockets that umockdev's preload opens for each monitor in a child.
///
/// `umockdev_testbed_uevent` looks the device up with libudev in the calling process, which sees the testbed only
/// when that process itself runs under the preload; under a plain `swift test` it prints "No such device" and sends
/// nothing. This sender builds the same message (systemd's `device_monitor_send_device` format, as umockdev's
/// `uevent_sender.c` does) from the testbed's files, so it needs no preload in the test process.
package struct UEventSender {
    /// The testbed root whose `event<N>` sockets are the listening monitors.
    package let rootDirectory: String

    /// The paths of the monitor sockets now open (one per libudev monitor in a preloaded child).
    package var listenerSockets: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: rootDirectory)) ?? []
        return names.filter { $0.hasPrefix("event") && Int($0.dropFirst(5)) != nil }
            .sorted()
            .map { rootDirectory + "/" + $0 }
    }

    /// Sends one event to every listening monitor.
    /// - Parameters:
    ///   - action: `add`, `remove`, `change`, …
    ///   - devpath: the device path without `/sys` (`/devices/…`).
    ///   - sequenceNumber: the event's `SEQNUM`.
    ///   - properties: the device's udev properties (its `uevent` file); `SUBSYSTEM` is required.
    package func send(action: String, devpath: String, sequenceNumber: UInt64, properties: [(String, String)]) throws {
        let message = try Self.message(
            action: action,
            devpath: devpath,
            sequenceNumber: sequenceNumber,
            properties: properties
        )
        for socketPath in listenerSockets {
            try deliver(message, to: socketPath)
        }
    }

    /// The bytes of one libudev monitor message: a 40-byte header, then `KEY=VALUE\0` properties.
    package static func message(
        action: String,
        devpath: String,
        sequenceNumber: UInt64,
        properties: [(String, String)]
    ) throws -> [UInt8] {
        let lookup = Dictionary(properties, uniquingKeysWith: { first, _ in first })
        guard let subsystem = lookup["SUBSYSTEM"] else {
            throw TestbedError(operation: "uevent", detail: "\(devpath) has no SUBSYSTEM property")
        }
        var ordered = [
            ("ACTION", action), ("DEVPATH", devpath), ("SUBSYSTEM", subsystem), ("SEQNUM", "\(sequenceNumber)"),
        ]
        if let devname = lookup["DEVNAME"] {
            ordered.append(("DEVNAME", devname.hasPrefix("/dev/") ? devname : "/dev/" + devname))
        }
        if let devtype = lookup["DEVTYPE"] {
            ordered.append(("DEVTYPE", devtype))
        }
        let reserved: Set = ["ACTION", "DEVPATH", "SUBSYSTEM", "SEQNUM", "DEVNAME", "DEVTYPE"]
        ordered += properties.filter { !reserved.contains($0.0) }
        var body: [UInt8] = []
        for (key, value) in ordered {
            body += Array("\(key)=\(value)".utf8) + [0]
        }

        let headerSize: UInt32 = 40
        var header: [UInt8] = Array("libudev".utf8) + [0]
        header += bytes(of: UInt32(0xfeed_cafe).bigEndian)  // magic, network order
        header += bytes(of: headerSize)  // header_size, host order
        header += bytes(of: headerSize)  // properties_off
        header += bytes(of: UInt32(body.count))  // properties_len
        header += bytes(of: murmurHash2(subsystem).bigEndian)  // filter_subsystem_hash, for the monitor's BPF filter
        header += bytes(of: (lookup["DEVTYPE"].map(murmurHash2) ?? 0).bigEndian)  // filter_devtype_hash
        header += bytes(of: UInt64(0))  // filter_tag_bloom_hi, _lo: no tags
        return header + body
    }

    /// MurmurHash2 with seed 0, as systemd's `string_hash32` hashes subsystem and devtype for monitor filters.
    package static func murmurHash2(_ text: String) -> UInt32 {
        let data = Array(text.utf8)
        let m: UInt32 = 0x5bd1_e995
        var hash = UInt32(truncatingIfNeeded: data.count)
        var index = 0
        while data.count - index >= 4 {
            var k =
                UInt32(data[index]) | UInt32(data[index + 1]) << 8 | UInt32(data[index + 2]) << 16
                | UInt32(data[index + 3]) << 24
            k = k &* m
            k ^= k >> 24
            k = k &* m
            hash = hash &* m
            hash ^= k
            index += 4
        }
        let remaining = data.count - index
        if remaining >= 3 { hash ^= UInt32(data[index + 2]) << 16 }
        if remaining >= 2 { hash ^= UInt32(data[index + 1]) << 8 }
        if remaining >= 1 {
            hash ^= UInt32(data[index])
            hash = hash &* m
        }
        hash ^= hash >> 13
        hash = hash &* m
        hash ^= hash >> 15
        return hash
    }

    private static func bytes<T: FixedWidthInteger>(of value: T) -> [UInt8] {
        withUnsafeBytes(of: value) { Array($0) }
    }

    /// Sends one datagram to one monitor socket; a monitor that closed meanwhile is skipped and its socket removed.
    private func deliver(_ message: [UInt8], to socketPath: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw TestbedError(operation: "socket", detail: "\(Errno.current)")
        }
        defer { close(fd) }
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(path: socketPath)
        } catch {
            throw TestbedError(operation: "uevent", detail: "socket path \(socketPath): \(error)")
        }
        let sent = address.withSocketAddress { pointer, length in
            message.withUnsafeBytes { buffer in sendto(fd, buffer.baseAddress, buffer.count, 0, pointer, length) }
        }
        if sent < 0 {
            let code = errno
            if code == ECONNREFUSED || code == ENOENT {
                unlink(socketPath)
                return
            }
            throw TestbedError(operation: "sendto \(socketPath)", detail: "\(Errno(code))")
        }
    }
}
