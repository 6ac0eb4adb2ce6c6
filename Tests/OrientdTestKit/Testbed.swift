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
import Foundation
import Glibc
import Synchronization
import SystemSupport
package import Testing

/// A failure of the umockdev harness, naming the call and what went wrong.
package struct TestbedError: Error, CustomStringConvertible {
    /// The C function or step that failed.
    package var operation: String
    /// The message (GError text, errno text, or the harness's own explanation).
    package var detail: String

    package init(operation: String, detail: String) {
        self.operation = operation
        self.detail = detail
    }

    package var description: String { "\(operation): \(detail)" }
}

/// How many testbeds exist now; more than one means a test creating testbeds runs outside `EmulatedDeviceTests`.
private let liveTestbeds = Mutex(0)

/// An owned umockdev testbed: a private sysfs and /dev tree that children started by `ChildProcess` see.
///
/// Creating one sets `UMOCKDEV_DIR` in this process's environment (umockdev does that); nothing here relies on it:
/// children get `UMOCKDEV_DIR` explicitly. Only one test at a time may own testbeds (see `EmulatedDeviceTests`).
package final class Testbed {
    private let handle: UnsafeMutablePointer<UMockdevTestbed>
    /// The testbed's root directory (`$UMOCKDEV_DIR` for children).
    package let rootDirectory: String
    /// The testbed's sysfs directory (`<root>/sys`).
    package let sysDirectory: String
    /// The PTY slave each emulated stream node links to, kept so a re-added device gets its old node back.
    private var ptySlaves: [String: String] = [:]
    private var sequenceNumber: UInt64 = 0

    /// Creates an empty testbed (`umockdev_testbed_new`); records a failure if another one exists.
    package init(sourceLocation: SourceLocation = #_sourceLocation) {
        let others = liveTestbeds.withLock { count in
            defer { count += 1 }
            return count
        }
        if others > 0 {
            Issue.record(
                "\(others) other Testbed(s) alive: create testbeds only in suites nested in EmulatedDeviceTests, one at a time",
                sourceLocation: sourceLocation
            )
        }
        handle = umockdev_testbed_new()
        rootDirectory = Self.take(umockdev_testbed_get_root_dir(handle))
        sysDirectory = Self.take(umockdev_testbed_get_sys_dir(handle))
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(handle))
        liveTestbeds.withLock { $0 -= 1 }
    }

    /// Adds the devices of a umockdev description (`umockdev_testbed_add_from_string`).
    ///
    /// A stream node (`N: name` without contents, a PTY) that this testbed made before and whose device was removed
    /// is linked again to its old PTY, so the same master fd feeds the re-added device: umockdev itself aborts the
    /// process when a removed device's node is added again.
    /// - Parameter announce: also send an `add` uevent for each device, as the kernel does on hotplug.
    /// - Returns: the syspaths (`/sys/devices/…`) of the devices added.
    @discardableResult
    package func add(_ description: String, announce: Bool = false) throws -> [String] {
        var relinks: [String] = []
        var lines: [Substring] = []
        var syspaths: [String] = []
        for line in description.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("P: ") {
                syspaths.append("/sys" + line.dropFirst(3))
                // umockdev aborts the process on a device that exists already.
                guard !FileManager.default.fileExists(atPath: rootDirectory + syspaths.last! + "/uevent") else {
                    throw TestbedError(operation: "add", detail: "\(syspaths.last!) exists already")
                }
            }
            if line.hasPrefix("N: "), !line.contains("="), ptySlaves["/dev/" + line.dropFirst(3)] != nil {
                relinks.append(String(line.dropFirst(3)))
                continue
            }
            lines.append(line)
        }
        var error: UnsafeMutablePointer<GError>?
        if umockdev_testbed_add_from_string(handle, lines.joined(separator: "\n"), &error) == 0 {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_error_free(error)
            throw TestbedError(operation: "umockdev_testbed_add_from_string", detail: message)
        }
        for name in relinks {
            let node = rootDirectory + "/dev/" + name
            guard symlink(ptySlaves["/dev/" + name]!, node) == 0 else {
                throw TestbedError(operation: "symlink \(node)", detail: "\(Errno.current)")
            }
        }
        for line in lines where line.hasPrefix("N: ") && !line.contains("=") {
            try rememberStreamNode("/dev/" + line.dropFirst(3))
        }
        if announce {
            for syspath in syspaths {
                try uevent(syspath, action: "add")
            }
        }
        return syspaths
    }

    /// Removes a device (`umockdev_testbed_remove_device`); its PTY master stays open for a later `add`.
    /// - Parameter announce: send a `remove` uevent (with the properties it had), as the kernel does on unplug.
    package func removeDevice(_ syspath: String, announce: Bool = false) throws {
        try requireDevice(syspath)
        let properties = try properties(of: syspath)
        umockdev_testbed_remove_device(handle, syspath)
        if announce {
            sequenceNumber += 1
            try UEventSender(rootDirectory: rootDirectory)
                .send(
                    action: "remove",
                    devpath: String(syspath.dropFirst(4)),
                    sequenceNumber: sequenceNumber,
                    properties: properties
                )
        }
    }

    /// Sends a uevent for a device to every libudev monitor of the children (see `UEventSender` for why not
    /// `umockdev_testbed_uevent`).
    package func uevent(_ syspath: String, action: String) throws {
        try requireDevice(syspath)
        sequenceNumber += 1
        try UEventSender(rootDirectory: rootDirectory)
            .send(
                action: action,
                devpath: String(syspath.dropFirst(4)),
                sequenceNumber: sequenceNumber,
                properties: try properties(of: syspath)
            )
    }

    /// How many libudev monitors the children have bound in this testbed: the preload's `<root>/event<fd>` sockets.
    /// A closed monitor's socket stays until the next send; two children binding with the same fd number share one
    /// name, and the later bind silently takes the events from the earlier one.
    package var monitorCount: Int { UEventSender(rootDirectory: rootDirectory).listenerSockets.count }

    /// The PTY master of an emulated stream node (`umockdev_testbed_get_dev_fd`); owned by the testbed, never close it.
    /// - Parameter node: `/dev/iio:device0` or `iio:device0`.
    package func deviceFileDescriptor(_ node: String) throws -> Int32 {
        let path = node.hasPrefix("/dev/") ? node : "/dev/" + node
        let fd = umockdev_testbed_get_dev_fd(handle, path)
        guard fd >= 0 else {
            throw TestbedError(
                operation: "umockdev_testbed_get_dev_fd",
                detail: "\(path) is not an emulated stream node"
            )
        }
        return fd
    }

    /// Writes bytes to an emulated stream node's PTY master: the program that opened the node reads them.
    package func write(_ bytes: [UInt8], to node: String) throws {
        let fd = try deviceFileDescriptor(node)
        do {
            try FileDescriptor(rawValue: fd).writeAll(bytes)
        } catch {
            throw TestbedError(operation: "write \(node)", detail: "\(error)")
        }
    }

    /// Answers the ioctls made on an emulated node from an ioctl record (`umockdev_testbed_load_ioctl`, the format of
    /// `umockdev-record --ioctl`): each request must match a record's request and size exactly, or it fails with
    /// ENOENT. The answers come from a thread of this process.
    /// - Parameters:
    ///   - node: `/dev/input/event5`.
    ///   - record: the record's text.
    package func loadIoctl(_ node: String, record: String) throws {
        let file = rootDirectory + "/ioctl-record-" + node.split(separator: "/").joined(separator: "-")
        try record.write(toFile: file, atomically: true, encoding: .utf8)
        var error: UnsafeMutablePointer<GError>?
        if umockdev_testbed_load_ioctl(handle, node, file, &error) == 0 {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_error_free(error)
            throw TestbedError(operation: "umockdev_testbed_load_ioctl \(node)", detail: message)
        }
    }

    /// Hands the ioctls, reads and writes made on an emulated node to `handler` (`umockdev_testbed_attach_ioctl`): its
    /// signals run on a thread of this process.
    /// - Parameters:
    ///   - node: `/dev/uinput`; the node must exist in the testbed, or the program opens the host's.
    ///   - handler: a `UMockdevIoctlBase`; the testbed takes a reference.
    func attachIoctl(_ node: String, handler: UnsafeMutablePointer<UMockdevIoctlBase>) throws {
        var error: UnsafeMutablePointer<GError>?
        if umockdev_testbed_attach_ioctl(handle, node, handler, &error) == 0 {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            g_error_free(error)
            throw TestbedError(operation: "umockdev_testbed_attach_ioctl \(node)", detail: message)
        }
    }

    /// Sets a sysfs attribute (`umockdev_testbed_set_attribute`), adding the trailing newline libiio needs.
    /// - Parameters:
    ///   - syspath: `/sys/devices/…`.
    ///   - name: the attribute, relative to the device (`in_accel_x_raw`, `buffer/enable`).
    package func setAttribute(_ syspath: String, _ name: String, _ value: String) throws {
        // umockdev aborts the whole process when the file cannot be written: check first.
        try requireDevice(syspath)
        let text = value.hasSuffix("\n") ? value : value + "\n"
        if try rewriteInPlace(rootDirectory + syspath + "/" + name, text) { return }
        umockdev_testbed_set_attribute(handle, syspath, name, text)
    }

    /// Sets a udev property of a device (what udev's database holds, as a hwdb entry applied by `udevadm trigger`
    /// gives it); send a `change` uevent to tell the children.
    package func setProperty(_ syspath: String, _ name: String, _ value: String) throws {
        try requireDevice(syspath)
        umockdev_testbed_set_property(handle, syspath, name, value)
    }

    /// Sets a sysfs attribute as umockdev's `set_attribute` does, and so every umockdev-based test suite of other
    /// sensor daemons: a new file renamed over the old one, which a reader holding the old one open does not see
    /// (``setAttribute(_:_:_:)`` writes in place instead, as sysfs changes a value). The trailing newline is added.
    package func replaceAttribute(_ syspath: String, _ name: String, _ value: String) throws {
        try requireDevice(syspath)
        umockdev_testbed_set_attribute(handle, syspath, name, value.hasSuffix("\n") ? value : value + "\n")
    }

    /// Rewrites an existing attribute file in place, as a sysfs attribute changes: a reader holding it open (the
    /// daemon polls through held descriptors) sees the new value at its next read. umockdev would replace the
    /// file, which such a reader never sees. The new text goes over the old one before the file is cut to its
    /// length, so a read in between still finds a number ended by a newline. False when there is no such file.
    private func rewriteInPlace(_ path: String, _ text: String) throws -> Bool {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw TestbedError(operation: "open \(path)", detail: "\(Errno.current)") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        guard written == bytes.count, ftruncate(fd, off_t(bytes.count)) == 0 else {
            throw TestbedError(operation: "write \(path)", detail: "\(Errno.current)")
        }
        return true
    }

    /// Reads a sysfs attribute back, without the trailing newline and NUL (libiio writes `1\0`).
    package func attribute(_ syspath: String, _ name: String) throws -> String {
        let path = rootDirectory + syspath + "/" + name
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TestbedError(operation: "read attribute", detail: "cannot read \(path)")
        }
        var bytes = Array(data)
        while let last = bytes.last, last == 0 || last == UInt8(ascii: "\n") {
            bytes.removeLast()
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The udev properties of a device, from its `uevent` file.
    package func properties(of syspath: String) throws -> [(String, String)] {
        try attribute(syspath, "uevent")
            .split(separator: "\n")
            .compactMap { line in
                guard let equals = line.firstIndex(of: "=") else { return nil }
                return (String(line[..<equals]), String(line[line.index(after: equals)...]))
            }
    }

    private func requireDevice(_ syspath: String) throws {
        guard syspath.hasPrefix("/sys/"), FileManager.default.fileExists(atPath: rootDirectory + syspath + "/uevent")
        else {
            throw TestbedError(operation: "testbed", detail: "no device at \(syspath)")
        }
    }

    /// Records a new PTY node's slave and puts the PTY in raw mode, so every byte written reaches the reader.
    private func rememberStreamNode(_ node: String) throws {
        let fd = umockdev_testbed_get_dev_fd(handle, node)
        guard fd >= 0 else { return }
        ptySlaves[node] = try FileManager.default.destinationOfSymbolicLink(atPath: rootDirectory + node)
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            throw TestbedError(operation: "tcgetattr \(node)", detail: "\(Errno.current)")
        }
        cfmakeraw(&settings)
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else {
            throw TestbedError(operation: "tcsetattr \(node)", detail: "\(Errno.current)")
        }
    }

    /// Converts a string the caller must free (a Vala `string` return) and frees it.
    private static func take(_ pointer: UnsafeMutablePointer<gchar>?) -> String {
        guard let pointer else { return "" }
        defer { g_free(pointer) }
        return String(cString: pointer)
    }
}
