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

import CUmockdev
import Synchronization

/// The kernel's `/dev/uinput` emulated through umockdev's ioctl emulation (`UMockdevIoctlBase`): a program under the
/// testbed opens the node and makes its devices with the real libevdev calls; each ioctl it makes, each event it
/// writes, and each open of the node is recorded here, in order, and answered as the kernel would (uinput
/// version 5, the sysfs name ``sysname`` of the device made). No input device appears in the testbed: a test that
/// wants the one the kernel would show adds it itself.
package final class UInputEmulation: Sendable {
    /// One thing the program did with `/dev/uinput`.
    package enum Record: Sendable, Hashable, CustomStringConvertible {
        /// It opened the node.
        case opened
        /// `UI_GET_VERSION`.
        case getVersion
        /// `UI_SET_EVBIT` with an event type (`EV_SW` 5).
        case setEventBit(UInt)
        /// `UI_SET_SWBIT` with a switch (`SW_TABLET_MODE` 1).
        case setSwitchBit(UInt)
        /// `UI_DEV_SETUP`: the device's name and ids.
        case setup(name: String, bus: UInt16, vendor: UInt16, product: UInt16)
        /// `UI_DEV_CREATE`: the device exists.
        case create
        /// `UI_GET_SYSNAME`.
        case getSysname
        /// `UI_DEV_DESTROY`: the device is gone.
        case destroy
        /// An event written (`struct input_event`): `EV_SW` 5, `EV_SYN` 0.
        case event(type: UInt16, code: UInt16, value: Int32)
        /// Any other ioctl, refused with EINVAL.
        case other(request: UInt)

        package var description: String {
            switch self {
            case .opened: "open"
            case .getVersion: "UI_GET_VERSION"
            case .setEventBit(let type): "UI_SET_EVBIT \(type)"
            case .setSwitchBit(let code): "UI_SET_SWBIT \(code)"
            case .setup(let name, let bus, let vendor, let product):
                "UI_DEV_SETUP \(name) bus \(bus) vendor \(vendor) product \(product)"
            case .create: "UI_DEV_CREATE"
            case .getSysname: "UI_GET_SYSNAME"
            case .destroy: "UI_DEV_DESTROY"
            case .event(let type, let code, let value): "event \(type) \(code) \(value)"
            case .other(let request): "ioctl 0x\(String(request, radix: 16))"
            }
        }

        /// `EV_SW SW_TABLET_MODE` with `value`.
        package static func tabletMode(_ on: Bool) -> Record { .event(type: 5, code: 1, value: on ? 1 : 0) }
        /// `EV_SYN SYN_REPORT`.
        package static let report = Record.event(type: 0, code: 0, value: 0)
    }

    /// The sysfs name the emulated kernel gives the device made (`UI_GET_SYSNAME`).
    package static let sysname = "input420"

    private let log: Log

    /// Adds `/dev/uinput` to `testbed` (a misc device, 10:223) and answers its ioctls from now on.
    package init(testbed: Testbed) throws {
        try testbed.add(
            """
            P: /devices/virtual/misc/uinput
            N: uinput
            E: DEVNAME=/dev/uinput
            E: SUBSYSTEM=misc
            A: dev=10:223\\n

            """
        )
        let handler = umockdev_ioctl_base_new()!
        // The handlers' one reference, never released: umockdev may call them until the testbed goes.
        let log = Log()
        self.log = log
        let data = Unmanaged.passRetained(log).toOpaque()
        g_signal_connect_data(
            handler,
            "handle-ioctl",
            unsafeBitCast(handleIoctl, to: GCallback.self),
            data,
            nil,
            GConnectFlags(0)
        )
        g_signal_connect_data(
            handler,
            "handle-write",
            unsafeBitCast(handleWrite, to: GCallback.self),
            data,
            nil,
            GConnectFlags(0)
        )
        g_signal_connect_data(
            handler,
            "client-connected",
            unsafeBitCast(clientConnected, to: GCallback.self),
            data,
            nil,
            GConnectFlags(0)
        )
        defer { g_object_unref(UnsafeMutableRawPointer(handler)) }
        try testbed.attachIoctl("/dev/uinput", handler: handler)
    }

    /// Everything recorded so far, in order.
    package var records: [Record] { log.records.withLock { $0 } }

    /// Waits until the records satisfy `condition` (checked every 50 ms), for up to `timeout`.
    /// - Returns: the records then, or the last ones seen.
    package func records(
        within timeout: Duration = .seconds(10),
        until condition: ([Record]) -> Bool
    ) async throws -> [Record] {
        let end = ContinuousClock.now + timeout
        var seen = records
        while !condition(seen), ContinuousClock.now < end {
            try await Task.sleep(for: .milliseconds(50))
            seen = records
        }
        return seen
    }

    /// The records, shared with umockdev's thread.
    fileprivate final class Log: Sendable {
        let records = Mutex<[Record]>([])

        func append(_ record: Record) {
            records.withLock { $0.append(record) }
        }
    }

    /// `_IOC(direction, 'U', number, size)` of linux/uinput.h.
    private static func request(_ direction: UInt, _ number: UInt, size: UInt) -> UInt {
        direction << 30 | size << 16 | UInt(UInt8(ascii: "U")) << 8 | number
    }

    private static let write: UInt = 1
    private static let read: UInt = 2

    /// The answer to one ioctl: the record, and the result and errno the program gets.
    fileprivate static func answer(_ client: UnsafeMutablePointer<UMockdevIoctlClient>) -> (Record, Int, Int32) {
        let request = UInt(umockdev_ioctl_client_get_request(client))
        let argument = umockdev_ioctl_client_get_arg(client)!
        let value = argument.pointee.data.withMemoryRebound(to: UInt.self, capacity: 1) { $0.pointee }
        switch request {
        case Self.request(read, 45, size: 4):
            return fill(argument, size: 4, with: [5, 0, 0, 0]) ? (.getVersion, 0, 0) : (.getVersion, -1, EFAULT)
        case Self.request(write, 100, size: 4):
            return (.setEventBit(value), 0, 0)
        case Self.request(write, 109, size: 4):
            return (.setSwitchBit(value), 0, 0)
        case Self.request(write, 3, size: 92):
            guard let setup = bytes(argument, size: 92) else { return (.other(request: request), -1, EFAULT) }
            let word = { (offset: Int) in UInt16(setup[offset]) | UInt16(setup[offset + 1]) << 8 }
            let name = String(decoding: setup[8..<88].prefix { $0 != 0 }, as: UTF8.self)
            return (.setup(name: name, bus: word(0), vendor: word(2), product: word(4)), 0, 0)
        case Self.request(0, 1, size: 0):
            return (.create, 0, 0)
        case Self.request(0, 2, size: 0):
            return (.destroy, 0, 0)
        case _ where request & ~(0x3fff << 16) == Self.request(read, 44, size: 0):
            let size = Int(request >> 16 & 0x3fff)
            let name = Array(sysname.utf8) + [0]
            guard name.count <= size, fill(argument, size: size, with: name) else { return (.getSysname, -1, EFAULT) }
            return (.getSysname, 0, 0)
        default:
            return (.other(request: request), -1, EINVAL)
        }
    }

    /// The `size` bytes the ioctl's pointer argument points to.
    private static func bytes(_ argument: UnsafeMutablePointer<UMockdevIoctlData>, size: Int) -> [UInt8]? {
        guard let pointed = umockdev_ioctl_data_resolve(argument, 0, gsize(size), nil) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(pointed)) }
        return Array(UnsafeBufferPointer(start: pointed.pointee.data, count: Int(pointed.pointee.data_len)))
    }

    /// Writes `bytes` where the ioctl's pointer argument points (synced back to the program when it completes).
    private static func fill(
        _ argument: UnsafeMutablePointer<UMockdevIoctlData>,
        size: Int,
        with bytes: [UInt8]
    ) -> Bool {
        guard let pointed = umockdev_ioctl_data_resolve(argument, 0, gsize(size), nil) else { return false }
        defer { g_object_unref(UnsafeMutableRawPointer(pointed)) }
        for (index, byte) in bytes.enumerated() { pointed.pointee.data[index] = byte }
        return true
    }

    /// The `struct input_event`s of a write (64-bit: a timeval, type, code, value; 24 bytes each).
    fileprivate static func events(_ client: UnsafeMutablePointer<UMockdevIoctlClient>) -> (events: [Record], size: Int)
    {
        let argument = umockdev_ioctl_client_get_arg(client)!
        let count = Int(argument.pointee.data_len)
        let bytes = Array(UnsafeBufferPointer(start: argument.pointee.data, count: count))
        var events: [Record] = []
        var offset = 0
        while offset + 24 <= count {
            let type = UInt16(bytes[offset + 16]) | UInt16(bytes[offset + 17]) << 8
            let code = UInt16(bytes[offset + 18]) | UInt16(bytes[offset + 19]) << 8
            let value = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + 20 + $1]) << (8 * $1) }
            events.append(.event(type: type, code: code, value: Int32(bitPattern: value)))
            offset += 24
        }
        return (events, count)
    }

    fileprivate static func log(_ data: gpointer?) -> Log {
        Unmanaged<Log>.fromOpaque(data!).takeUnretainedValue()
    }
}

private let handleIoctl:
    @convention(c) (
        UnsafeMutablePointer<UMockdevIoctlBase>?, UnsafeMutablePointer<UMockdevIoctlClient>?, gpointer?
    ) -> gboolean = { _, client, data in
        guard let client else { return 0 }
        let (record, result, error) = UInputEmulation.answer(client)
        UInputEmulation.log(data).append(record)
        umockdev_ioctl_client_complete(client, glong(result), error)
        return 1
    }

private let handleWrite:
    @convention(c) (
        UnsafeMutablePointer<UMockdevIoctlBase>?, UnsafeMutablePointer<UMockdevIoctlClient>?, gpointer?
    ) -> gboolean = { _, client, data in
        guard let client else { return 0 }
        let (events, size) = UInputEmulation.events(client)
        let log = UInputEmulation.log(data)
        for event in events { log.append(event) }
        umockdev_ioctl_client_complete(client, glong(size), 0)
        return 1
    }

/// A program opened the node. Its closing is not recorded: umockdev 0.17 never emits `client-vanished`, and the
/// client's `connected` was not seen to change when the program ended.
private let clientConnected:
    @convention(c) (UnsafeMutablePointer<UMockdevIoctlBase>?, UnsafeMutablePointer<UMockdevIoctlClient>?, gpointer?) ->
        Void = { _, _, data in UInputEmulation.log(data).append(.opened) }
