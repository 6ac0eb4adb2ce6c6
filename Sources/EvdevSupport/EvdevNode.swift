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

import CEvdev
public import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// An input device node open for libevdev: its non-blocking, close-on-exec descriptor and the libevdev handle made
/// from it, both released when the node is.
///
/// The one way the package opens an evdev node, for the tablet-mode switches and the input accelerometers alike.
/// Its owner watches ``descriptor`` on the loop, reads events and values through ``handle`` with libevdev, and drops
/// its IO source before it lets the node go.
public final class EvdevNode {
    /// The device node (`/dev/input/event5`).
    public let path: String
    /// The open node, read-only and non-blocking; closed by the node itself.
    public let descriptor: FileDescriptor
    /// libevdev's handle of the device (`struct libevdev *`), for the owner's libevdev calls; freed by the node.
    public let handle: OpaquePointer

    /// Opens `path` read-only, non-blocking and close-on-exec (`open`, retried on `EINTR`) and gives it to libevdev
    /// (`libevdev_new_from_fd`, which reads the device's name, events and current values).
    /// - Throws: ``EvdevNodeError`` naming the call that failed and its errno; nothing stays open.
    public init(opening path: String) throws(EvdevNodeError) {
        let descriptor: FileDescriptor
        do {
            descriptor = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK)
        } catch {
            throw EvdevNodeError(operation: "open", path: path, errno: error)
        }
        var handle: OpaquePointer?
        let result = libevdev_new_from_fd(descriptor.rawValue, &handle)
        guard result >= 0, let handle else {
            descriptor.close()
            throw EvdevNodeError(operation: "libevdev_new_from_fd", path: path, errno: Errno(result))
        }
        self.path = path
        self.descriptor = descriptor
        self.handle = handle
    }

    deinit {
        libevdev_free(handle)
        descriptor.close()
    }
}

/// A failure to open an evdev node (``EvdevNode``), naming the call, the node and the error number; each owner turns
/// it into an error of its own.
public struct EvdevNodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The C function that failed (`open`, `libevdev_new_from_fd`).
    public var operation: String
    /// The device node (`/dev/input/event5`).
    public var path: String
    /// Why.
    public var errno: Errno

    init(operation: String, path: String, errno: Errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// What to do about it, for the owner's own error: how to get the rights when the node was refused for lack of
    /// them (`EACCES`, `EPERM`), else nil.
    public var advice: String? {
        errno.isPermissionDenied ? Self.permissionAdvice : nil
    }

    /// How to get the rights to read an input device's node, for any error of one refused for lack of them.
    public static let permissionAdvice =
        "input devices are readable by root and the input group: run orientd as root, as its unit does"

    public var description: String {
        "\(path): \(operation): \(errno)"
    }
}
