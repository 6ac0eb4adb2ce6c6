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

package import SystemSupport

/// A failed libudev call: the C function and the errno.
package struct UdevError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The C function that failed, such as `udev_monitor_enable_receiving`.
    package var operation: String
    /// Why.
    package var errno: Errno

    package init(operation: String, errno: Errno) {
        self.operation = operation
        self.errno = errno
    }

    /// The failure as one line, such as `udev_new: Cannot allocate memory`.
    package var description: String {
        "\(operation): \(errno)"
    }
}
