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

public import SystemSupport

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
