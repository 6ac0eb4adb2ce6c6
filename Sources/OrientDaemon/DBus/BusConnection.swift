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
import EventLoop
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// A connection to the system bus (sd-bus), dispatched by the daemon's event loop: owns its `sd_bus*`.
///
/// `sd_bus_attach_event` makes the bus one more source of the loop (its fd, its timeouts), so the connection
/// needs no IO source of its own. Use it only from the loop's thread.
final class BusConnection {
    /// The `sd_bus*` this object owns.
    let bus: OpaquePointer

    /// Connects to the system bus (`sd_bus_open_system`: `$DBUS_SYSTEM_BUS_ADDRESS`, else
    /// `/run/dbus/system_bus_socket`) and attaches it to `loop` (`sd_bus_attach_event`).
    /// - Throws: ``BusError`` naming the call that failed.
    init(loop: EventLoop, description: String) throws(BusError) {
        var bus: OpaquePointer?
        try BusError.check(sd_bus_open_system(&bus), "sd_bus_open_system")
        self.bus = try BusError.returned(bus, by: "sd_bus_open_system")
        _ = sd_bus_set_description(self.bus, description)
        let attached = loop.withUnsafeEventPointer { event in sd_bus_attach_event(self.bus, event, 0) }
        try BusError.check(attached, "sd_bus_attach_event")
    }

    deinit {
        // Sends what is queued, detaches from the loop and closes; the bus then releases the names held.
        sd_bus_flush_close_unref(bus)
    }

    /// Takes a well-known name (`sd_bus_request_name`, waiting for the bus's answer), without queueing for it.
    /// - Throws: ``BusError``: `EEXIST` when another connection owns it, `EACCES` when the bus policy forbids it.
    func requestName(_ name: String) throws(BusError) {
        try BusError.check(sd_bus_request_name(bus, name, 0), "sd_bus_request_name", name)
    }

    /// The connection's unique name, such as `:1.7`.
    var uniqueName: String? {
        var name: UnsafePointer<CChar>?
        guard sd_bus_get_unique_name(bus, &name) >= 0, let name else { return nil }
        return String(cString: name)
    }

    /// Whether the connection is open (not closed by the bus or after an error).
    var isOpen: Bool { sd_bus_is_open(bus) > 0 }

    /// Broadcasts `org.freedesktop.DBus.Properties.PropertiesChanged` with the new values of `names`
    /// (`sd_bus_emit_properties_changed_strv`; sd-bus reads them through the object's getters).
    /// - Throws: ``BusError`` naming the call.
    func emitPropertiesChanged(path: String, interface: String, names: [String]) throws(BusError) {
        var strings = names.map { strdup($0) } + [nil]
        defer {
            for string in strings { free(string) }
        }
        let result = strings.withUnsafeMutableBufferPointer { buffer in
            sd_bus_emit_properties_changed_strv(bus, path, interface, buffer.baseAddress)
        }
        try BusError.check(result, "sd_bus_emit_properties_changed", names.joined(separator: ", "))
    }

    /// Sends `org.freedesktop.DBus.Properties.PropertiesChanged` with the new values of `properties` to one
    /// connection only (a unicast signal: its destination set), as iio-sensor-proxy sends readings to the clients
    /// that claim the sensor.
    /// - Throws: ``BusError`` naming the call.
    func sendPropertiesChanged(
        path: String,
        interface: String,
        properties: [(name: String, value: PropertyValue)],
        to destination: String
    ) throws(BusError) {
        var created: OpaquePointer?
        try BusError.check(
            sd_bus_message_new_signal(bus, &created, path, "org.freedesktop.DBus.Properties", "PropertiesChanged"),
            "sd_bus_message_new_signal"
        )
        let message = try BusError.returned(created, by: "sd_bus_message_new_signal")
        defer { sd_bus_message_unref(message) }
        let what = properties.map(\.name).joined(separator: ", ")
        try BusError.check(sd_bus_message_set_destination(message, destination), "sd_bus_message_set_destination")
        try BusError.check(
            PropertyValue.string(interface).append(to: message),
            "sd_bus_message_append_basic",
            interface
        )
        try BusError.check(Self.open(message, "a", "{sv}"), "sd_bus_message_open_container", what)
        for property in properties {
            try BusError.check(Self.open(message, "e", "sv"), "sd_bus_message_open_container", property.name)
            try BusError.check(PropertyValue.string(property.name).append(to: message), "sd_bus_message_append_basic")
            try BusError.check(Self.open(message, "v", property.value.signature), "sd_bus_message_open_container")
            try BusError.check(property.value.append(to: message), "sd_bus_message_append_basic", property.name)
            try BusError.check(sd_bus_message_close_container(message), "sd_bus_message_close_container")
            try BusError.check(sd_bus_message_close_container(message), "sd_bus_message_close_container")
        }
        try BusError.check(sd_bus_message_close_container(message), "sd_bus_message_close_container")
        // No invalidated properties.
        try BusError.check(Self.open(message, "a", "s"), "sd_bus_message_open_container")
        try BusError.check(sd_bus_message_close_container(message), "sd_bus_message_close_container")
        try BusError.check(sd_bus_send(bus, message, nil), "sd_bus_send", "\(what) to \(destination)")
    }

    private static func open(_ message: OpaquePointer, _ type: Unicode.Scalar, _ contents: String) -> Int32 {
        sd_bus_message_open_container(message, CChar(UInt8(ascii: type)), contents)
    }
}

extension BusConnection {
    /// A property's value of one of the basic D-Bus types the properties use: its type and how it is appended to a
    /// message come from the one case, for a getter's reply and a `PropertiesChanged` alike.
    enum PropertyValue: Sendable, Equatable {
        case boolean(Bool)
        case string(String)
        case double(Double)

        /// Its D-Bus signature: `b`, `s` or `d`.
        var signature: String {
            switch self {
            case .boolean: "b"
            case .string: "s"
            case .double: "d"
            }
        }

        /// Appends it to `message` (`sd_bus_message_append_basic`).
        /// - Returns: sd-bus's result, a negative errno on failure.
        func append(to message: OpaquePointer) -> Int32 {
            switch self {
            case .boolean(let boolean):
                var value: Int32 = boolean ? 1 : 0
                return sd_bus_message_append_basic(message, CChar(UInt8(ascii: "b")), &value)
            case .string(let string):
                return string.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
            case .double(let double):
                var value = double
                return sd_bus_message_append_basic(message, CChar(UInt8(ascii: "d")), &value)
            }
        }
    }
}
