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

import CSystemd
import Dispatch
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `org.orientd.AppFocus` on the session bus: the service orientd's KWin script calls (a KWin script cannot open a
/// socket, but its `callDBus` reaches a bus service). Each `Activated(resource_class, resource_name,
/// desktop_file_name)` call, empty strings for no active window, is handed to `activated` as the app's names.
///
/// The bus is read on a dispatch queue of its own, which blocks in `sd_bus_wait`: method calls come whenever
/// the user switches windows, and nothing else runs on that connection.
final class AppFocusBus: @unchecked Sendable {
    /// The well-known name, object and interface.
    static let name = "org.orientd.AppFocus"
    static let objectPath = "/org/orientd/AppFocus"
    static let interface = "org.orientd.AppFocus"

    private let bus: OpaquePointer
    private let table: UnsafeMutablePointer<sd_bus_vtable>
    private let activated: @Sendable ([String?]) -> Void
    private let queue = DispatchQueue(label: "org.orientd.AppFocus")

    /// Connects to the session bus (`$DBUS_SESSION_BUS_ADDRESS`), serves the object and takes the name.
    /// - Throws: the failure, in words: no session bus, or the name already taken (another one runs).
    init(activated: @escaping @Sendable ([String?]) -> Void) throws(QueryFailure) {
        self.activated = activated
        var opened: OpaquePointer?
        let result = sd_bus_open_user(&opened)
        guard result >= 0, let opened else {
            throw QueryFailure(
                message: "cannot connect to the session bus: \(Errno(result)) (is DBUS_SESSION_BUS_ADDRESS set?)"
            )
        }
        bus = opened
        _ = sd_bus_set_description(bus, "orientctl kwin-focus")
        table = .allocate(capacity: orientd_app_focus_vtable_count())
        orientd_app_focus_vtable(table, Self.callMethod)
        let added = sd_bus_add_object_vtable(
            bus,
            nil,
            Self.objectPath,
            Self.interface,
            table,
            Unmanaged.passUnretained(self).toOpaque()
        )
        guard added >= 0 else {
            sd_bus_flush_close_unref(bus)
            table.deallocate()
            throw QueryFailure(message: "cannot serve \(Self.objectPath) on the session bus: \(Errno(added))")
        }
        let requested = sd_bus_request_name(bus, Self.name, 0)
        guard requested >= 0 else {
            sd_bus_flush_close_unref(bus)
            table.deallocate()
            let why = requested == -EEXIST ? "another orientctl kwin-focus owns it" : "\(Errno(requested))"
            throw QueryFailure(message: "cannot take \(Self.name) on the session bus: \(why)")
        }
    }

    /// Serves calls until the bus connection ends (the session's bus went away), then calls `ended` with why.
    func serve(ended: @escaping @Sendable (String) -> Void) {
        queue.async { [self] in
            while true {
                let processed = sd_bus_process(bus, nil)
                if processed < 0 {
                    ended("the session bus connection ended: \(Errno(processed))")
                    return
                }
                if processed > 0 { continue }
                let waited = retryingInterrupts(.negatedErrno) { sd_bus_wait(bus, UInt64.max) }
                if waited < 0 {
                    ended("the session bus connection ended: \(Errno(waited))")
                    return
                }
            }
        }
    }

    /// The vtable's method handler: reads the three names and answers at once.
    private static let callMethod: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return -EINVAL }
        let service = Unmanaged<AppFocusBus>.fromOpaque(userdata).takeUnretainedValue()
        var names: [String?] = []
        for _ in 0..<3 {
            var text: UnsafePointer<CChar>?
            let read = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &text)
            guard read > 0 else { return read < 0 ? read : -EINVAL }
            names.append(text.map { String(cString: $0) })
        }
        service.activated(names)
        return orientd_bus_reply_empty(message)
    }
}
