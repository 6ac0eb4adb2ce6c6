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

import EvdevSupport
public import SystemSupport

/// A failure to read an input device's switches, naming the call, the device and the error number.
public struct SwitchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The C function that failed (`open`, `libevdev_new_from_fd`, `libevdev_next_event`).
    public var operation: String
    /// The device node (`/dev/input/event5`).
    public var device: String
    /// Why.
    public var errno: Errno

    init(_ operation: String, device: String, errno: Errno) {
        self.operation = operation
        self.device = device
        self.errno = errno
    }

    /// Whether the device is no longer there (unplugged, or its driver unbound).
    public var isDeviceGone: Bool {
        errno.isDeviceGone
    }

    public var description: String {
        var text = "\(device): \(operation): \(errno)"
        if errno.isPermissionDenied {
            text += " (\(EvdevNodeError.permissionAdvice))"
        }
        return text
    }
}
