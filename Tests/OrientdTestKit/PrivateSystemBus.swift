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
import Foundation
import Glibc
import SystemSupport
package import Testing

/// A `dbus-daemon` of the system type, private to one test: its socket in a fresh folder, the default policy of
/// Debian's `system.conf` (nobody may own a name or call a method unless a policy file allows it), and, when asked,
/// the repository's `systemd/net.hadess.SensorProxy.conf` included.
package final class PrivateSystemBus {
    package let sandbox: DaemonSandbox
    package let process: ChildProcess

    /// The folder's socket, as `DBUS_SYSTEM_BUS_ADDRESS` names it.
    package var address: String { "unix:path=\(socketPath)" }
    /// The environment a program needs to use this bus as its system bus.
    package var environment: [String: String] { ["DBUS_SYSTEM_BUS_ADDRESS": address] }
    private var socketPath: String { sandbox.directory + "/system_bus_socket" }

    /// The shipped policy file.
    package static let policyFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("systemd/net.hadess.SensorProxy.conf").path

    /// Starts the bus and waits until it accepts connections.
    /// - Parameters:
    ///   - policy: whether the shipped policy file is included.
    ///   - environment: extra variables for dbus-daemon (such as nss_wrapper's, to name the users of the policy).
    ///   - otherPolicies: more policy files to include (such as polkit's, for ``PrivatePolkit``).
    package init(
        testbed: Testbed,
        policy: Bool = true,
        otherPolicies: [String] = [],
        environment: [String: String] = [:]
    ) async throws {
        sandbox = try DaemonSandbox()
        let configuration = sandbox.directory + "/system.conf"
        try Self.configuration(socket: sandbox.directory + "/system_bus_socket", policy: policy, others: otherPolicies)
            .write(toFile: configuration, atomically: true, encoding: .utf8)
        // The address is printed once the socket accepts connections (the file exists a little earlier).
        process = try ChildProcess(
            "dbus-daemon",
            ["--config-file=\(configuration)", "--nofork", "--print-address=1"],
            testbed: testbed,
            environment: environment
        )
        let up = await process.waitUntil("the bus listens", timeout: .seconds(20)) {
            process.outputText.contains("unix:path=")
        }
        guard up else { throw DaemonTestError(description: "dbus-daemon did not start\n\(process.report)") }
    }

    deinit {
        process.terminate()
    }

    /// Runs `gdbus` on this bus and waits for it.
    /// - Parameter user: run as this uid and gid (with `setpriv`) instead of root.
    package func gdbus(_ arguments: [String], testbed: Testbed, user: UInt32? = nil) async throws -> ChildProcess {
        let child = try start("gdbus", arguments, testbed: testbed, user: user)
        await child.wait(timeout: .seconds(30))
        return child
    }

    /// Starts a program on this bus, its output line-buffered (GLib tools write through stdio).
    package func start(
        _ program: String,
        _ arguments: [String],
        testbed: Testbed,
        user: UInt32? = nil
    ) throws -> ChildProcess {
        var command = ["-oL", program] + arguments
        if let user {
            command = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", "stdbuf"] + command
            return try ChildProcess("setpriv", command, testbed: testbed, environment: environment)
        }
        return try ChildProcess("stdbuf", command, testbed: testbed, environment: environment)
    }

    /// Starts orientd on this bus with `configuration` as its configuration file (in a fresh sandbox), such as
    /// `[DBus]\nCompat=yes\n`, and `arguments` before `--config`.
    package func daemon(
        testbed: Testbed,
        configuration: String,
        arguments: [String] = RunningDaemon.defaultArguments
    ) async throws -> RunningDaemon {
        let sandbox = try DaemonSandbox()
        let file = sandbox.directory + "/orientd.conf"
        try configuration.write(toFile: file, atomically: true, encoding: .utf8)
        return try await RunningDaemon(
            testbed: testbed,
            sandbox: sandbox,
            arguments: arguments + ["--config", file],
            environment: environment
        )
    }

    /// Starts `gdbus monitor` with `arguments` (such as `--system --dest NAME`) and waits until it listens: gdbus
    /// subscribes to the signals only once it has found the name's owner, after its "Monitoring" line, so the
    /// owner's line ("The name … is owned by …") is the one that says a signal sent from now on is printed.
    package func monitor(_ arguments: [String], testbed: Testbed) async throws -> ChildProcess {
        let monitor = try start("gdbus", ["monitor"] + arguments, testbed: testbed)
        let listening = await monitor.waitUntil("it monitors", timeout: .seconds(20)) {
            monitor.outputText.contains("is owned by")
        }
        guard listening else { throw DaemonTestError(description: "gdbus monitor did not start\n\(monitor.report)") }
        return monitor
    }

    /// `Get` of one property of `net.hadess.SensorProxy`, as gdbus prints it, such as `<'normal'>`.
    package func property(_ name: String, testbed: Testbed) async throws -> String {
        let call = try await gdbus(
            [
                "call", "--system", "--dest", "net.hadess.SensorProxy", "--object-path", "/net/hadess/SensorProxy",
                "--method", "org.freedesktop.DBus.Properties.Get", "net.hadess.SensorProxy", name,
            ],
            testbed: testbed
        )
        guard call.exitStatus == .exited(0) else { throw DaemonTestError(description: call.report) }
        // "(<'normal'>,)"
        return String(call.outputText.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst().dropLast(2))
    }

    /// Waits until a property reads `value`; records a failure with `context` if it does not.
    @discardableResult
    package func waitForProperty(
        _ name: String,
        _ value: String,
        testbed: Testbed,
        context: @autoclosure () -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        var last = ""
        while ContinuousClock.now < deadline {
            last = try await property(name, testbed: testbed)
            if last == value { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("\(name) is \(last), not \(value)\n\(context())", sourceLocation: sourceLocation)
        return false
    }

    /// The bus configuration shared with `scripts/side-by-side.py`, `Tests/Corpus/private-system-bus.conf`.
    package static let template = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Corpus/private-system-bus.conf").standardized.path

    private static func configuration(socket: String, policy: Bool, others: [String]) throws -> String {
        let files = (policy ? [policyFile] : []) + others
        return try String(contentsOfFile: template, encoding: .utf8)
            .replacingOccurrences(of: "@SOCKET@", with: socket)
            .replacingOccurrences(of: "@INCLUDE@", with: files.map { "<include>\($0)</include>" }.joined())
    }
}

/// A client connection of the test process itself to a bus (sd-bus), for claims that must outlive one call.
package final class BusClient {
    private let bus: OpaquePointer
    private var slots: [OpaquePointer] = []
    /// The `PropertiesChanged` signals of `net.hadess.SensorProxy` received since ``collectPropertyChanges(broadcast:)``,
    /// each as its `Name=value` pairs in order, such as `["AccelerometerOrientation=bottom-up"]`.
    package private(set) var propertyChanges: [[String]] = []

    /// Connects to `address` as a bus client.
    package init(address: String) throws {
        var bus: OpaquePointer?
        try Self.check(sd_bus_new(&bus), "sd_bus_new")
        self.bus = bus!
        try Self.check(sd_bus_set_address(self.bus, address), "sd_bus_set_address")
        try Self.check(sd_bus_set_bus_client(self.bus, 1), "sd_bus_set_bus_client")
        try Self.check(sd_bus_start(self.bus), "sd_bus_start")
    }

    deinit {
        for slot in slots { sd_bus_slot_unref(slot) }
        sd_bus_flush_close_unref(bus)
    }

    /// Records every `PropertiesChanged` signal this connection receives from now on: those sent to it (a unicast
    /// signal reaches its destination without a match rule) and, with `broadcast`, those sent to everyone (a match
    /// rule, as `gdbus monitor` adds). Received while the client calls or waits (``waitForPropertyChanges``).
    package func collectPropertyChanges(broadcast: Bool) throws {
        let userdata = Unmanaged.passUnretained(self).toOpaque()
        var slot: OpaquePointer?
        try Self.check(
            sd_bus_add_filter(
                bus,
                &slot,
                { message, userdata, _ in
                    guard let message, let userdata,
                        sd_bus_message_is_signal(message, "org.freedesktop.DBus.Properties", "PropertiesChanged") > 0
                    else { return 0 }
                    let client = Unmanaged<BusClient>.fromOpaque(userdata).takeUnretainedValue()
                    client.propertyChanges.append(BusClient.changes(in: message))
                    return 0
                },
                userdata
            ),
            "sd_bus_add_filter"
        )
        slots.append(slot!)
        if broadcast {
            let rule =
                "type='signal',sender='net.hadess.SensorProxy',interface='org.freedesktop.DBus.Properties',"
                + "member='PropertiesChanged'"
            try Self.check(sd_bus_add_match(bus, &slot, rule, nil, nil), "sd_bus_add_match")
            slots.append(slot!)
        }
    }

    /// Handles what the bus has sent until `condition` holds for ``propertyChanges``; false when `timeout` passes
    /// first.
    package func waitForPropertyChanges(
        timeout: Duration = .seconds(10),
        _ condition: ([[String]]) -> Bool
    ) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while true {
            while try Self.checked(sd_bus_process(bus, nil), "sd_bus_process") > 0 {}
            if condition(propertyChanges) { return true }
            if ContinuousClock.now >= deadline { return false }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The `Name=value` pairs of a `PropertiesChanged` signal (`sa{sv}as`).
    private static func changes(in message: OpaquePointer) -> [String] {
        var pairs: [String] = []
        let array = CChar(UInt8(ascii: "a"))
        let entry = CChar(UInt8(ascii: "e"))
        let variant = CChar(UInt8(ascii: "v"))
        guard sd_bus_message_skip(message, "s") >= 0, sd_bus_message_enter_container(message, array, "{sv}") > 0
        else { return ["unreadable"] }
        while sd_bus_message_enter_container(message, entry, "sv") > 0 {
            var name: UnsafePointer<CChar>?
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &name) > 0, let name,
                sd_bus_message_peek_type(message, &type, &contents) > 0, let contents,
                sd_bus_message_enter_container(message, variant, contents) > 0
            else { return pairs + ["unreadable"] }
            pairs.append("\(String(cString: name))=\(value(of: message, signature: String(cString: contents)))")
            _ = sd_bus_message_exit_container(message)
            _ = sd_bus_message_exit_container(message)
        }
        return pairs
    }

    private static func value(of message: OpaquePointer, signature: String) -> String {
        switch signature {
        case "s":
            var text: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &text) > 0, let text else { break }
            return String(cString: text)
        case "d":
            var number = 0.0
            guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "d")), &number) > 0 else { break }
            return "\(number)"
        case "b":
            var flag: Int32 = 0
            guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "b")), &flag) > 0 else { break }
            return flag != 0 ? "true" : "false"
        default:
            break
        }
        return "unreadable (\(signature))"
    }

    /// The connection's unique name, such as `:1.4`.
    package var uniqueName: String {
        var name: UnsafePointer<CChar>?
        _ = sd_bus_get_unique_name(bus, &name)
        return name.map { String(cString: $0) } ?? "?"
    }

    /// Calls a method of `net.hadess.SensorProxy` without arguments and waits for the reply.
    package func call(
        _ method: String,
        interface: String = "net.hadess.SensorProxy",
        path: String = "/net/hadess/SensorProxy"
    )
        throws
    {
        var message: OpaquePointer?
        try Self.check(
            sd_bus_message_new_method_call(bus, &message, "net.hadess.SensorProxy", path, interface, method),
            "sd_bus_message_new_method_call"
        )
        defer { sd_bus_message_unref(message) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let result = sd_bus_call(bus, message, 10_000_000, &error, &reply)
        sd_bus_message_unref(reply)
        guard result >= 0 else {
            let name = error.name.map { String(cString: $0) } ?? ""
            let text = error.message.map { String(cString: $0) } ?? "\(Errno(result))"
            throw DaemonTestError(description: "\(method): \(name) \(text)")
        }
    }

    /// The replies to the calls made with ``send(_:interface:path:)``, by the call's serial: empty for a method
    /// return, the error's name for an error (a call that gets no reply in 30 s gets sd-bus's timeout error).
    package private(set) var replies: [UInt64: String] = [:]

    /// Sends a call of a method of `net.hadess.SensorProxy` without arguments and returns at once, before its reply.
    /// - Returns: the call's serial, to find its reply in ``replies`` (``waitForReply(to:timeout:)``).
    package func send(
        _ method: String,
        interface: String = "net.hadess.SensorProxy",
        path: String = "/net/hadess/SensorProxy"
    ) throws -> UInt64 {
        var message: OpaquePointer?
        try Self.check(
            sd_bus_message_new_method_call(bus, &message, "net.hadess.SensorProxy", path, interface, method),
            "sd_bus_message_new_method_call"
        )
        defer { sd_bus_message_unref(message) }
        var slot: OpaquePointer?
        try Self.check(
            sd_bus_call_async(
                bus,
                &slot,
                message,
                { reply, userdata, _ in
                    guard let reply, let userdata else { return 0 }
                    let client = Unmanaged<BusClient>.fromOpaque(userdata).takeUnretainedValue()
                    var serial: UInt64 = 0
                    _ = sd_bus_message_get_reply_cookie(reply, &serial)
                    let error = sd_bus_message_get_error(reply)
                    client.replies[serial] = error?.pointee.name.map { String(cString: $0) } ?? ""
                    return 0
                },
                Unmanaged.passUnretained(self).toOpaque(),
                30_000_000
            ),
            "sd_bus_call_async \(method)"
        )
        slots.append(slot!)
        // Out now, not at the next processing of the connection.
        try Self.check(sd_bus_flush(bus), "sd_bus_flush")
        var serial: UInt64 = 0
        try Self.check(sd_bus_message_get_cookie(message, &serial), "sd_bus_message_get_cookie")
        return serial
    }

    /// Handles what the bus sends until the reply to the call `serial` (``send(_:interface:path:)``) is in.
    /// - Returns: the reply as ``replies`` holds it; nil when `timeout` passes first.
    package func waitForReply(to serial: UInt64, timeout: Duration = .seconds(10)) async throws -> String? {
        _ = try await waitForPropertyChanges(timeout: timeout) { _ in replies[serial] != nil }
        return replies[serial]
    }

    /// `Get` of a string property on this connection (so that it follows, on the daemon's side, every call this
    /// connection made before).
    package func stringProperty(
        _ name: String,
        interface: String = "net.hadess.SensorProxy",
        path: String = "/net/hadess/SensorProxy"
    ) throws -> String {
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var value: UnsafeMutablePointer<CChar>?
        let result = sd_bus_get_property_string(bus, "net.hadess.SensorProxy", path, interface, name, &error, &value)
        defer { free(value) }
        guard result >= 0, let value else {
            let text = error.message.map { String(cString: $0) } ?? "\(Errno(result))"
            throw DaemonTestError(description: "Get \(name): \(text)")
        }
        return String(cString: value)
    }

    /// `GetAll` of an interface: each property's name and the D-Bus signature of its value, such as
    /// `["HasCompass": "b", "CompassHeading": "d"]`.
    package func propertySignatures(
        interface: String = "net.hadess.SensorProxy",
        path: String = "/net/hadess/SensorProxy"
    ) throws -> [String: String] {
        var message: OpaquePointer?
        try Self.check(
            sd_bus_message_new_method_call(
                bus,
                &message,
                "net.hadess.SensorProxy",
                path,
                "org.freedesktop.DBus.Properties",
                "GetAll"
            ),
            "sd_bus_message_new_method_call"
        )
        defer { sd_bus_message_unref(message) }
        try interface.withCString {
            try Self.check(sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0), "append")
        }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        let result = sd_bus_call(bus, message, 10_000_000, &error, &reply)
        defer { sd_bus_message_unref(reply) }
        guard result >= 0 else {
            let text = error.message.map { String(cString: $0) } ?? "\(Errno(result))"
            throw DaemonTestError(description: "GetAll \(interface): \(text)")
        }
        var signatures: [String: String] = [:]
        guard sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "a")), "{sv}") > 0 else {
            throw DaemonTestError(description: "GetAll \(interface): not an a{sv}")
        }
        while sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "e")), "sv") > 0 {
            var name: UnsafePointer<CChar>?
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            guard sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &name) > 0, let name,
                sd_bus_message_peek_type(reply, &type, &contents) > 0, let contents
            else { throw DaemonTestError(description: "GetAll \(interface): unreadable entry") }
            signatures[String(cString: name)] = String(cString: contents)
            _ = sd_bus_message_skip(reply, "v")
            _ = sd_bus_message_exit_container(reply)
        }
        return signatures
    }

    /// Takes a well-known name, as another program that owns it would.
    package func requestName(_ name: String) throws {
        try Self.check(sd_bus_request_name(bus, name, 0), "sd_bus_request_name \(name)")
    }

    private static func check(_ result: Int32, _ operation: String) throws {
        guard result < 0 else { return }
        throw DaemonTestError(description: "\(operation): \(Errno(result))")
    }

    private static func checked(_ result: Int32, _ operation: String) throws -> Int32 {
        try check(result, operation)
        return result
    }
}
