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

/// A failure of the sensor layer, naming the C call, the device and the error number.
public struct SensorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public enum Kind: Sendable, Hashable {
        /// A libiio, libudev or system call failed.
        case call
        /// An attribute's text could not be read as what it should hold.
        case badAttribute
        /// The device went away.
        case deviceGone
    }

    /// What kind of failure.
    public var kind: Kind
    /// The C function or the step that failed (`iio_create_local_context`, `in_accel_scale`…).
    public var operation: String
    /// The IIO device (`iio:device0`) or other object concerned, if any.
    public var device: String?
    /// The system's error, if the failure came with one.
    public var errno: Errno?
    /// More words: the attribute's text, what was expected, what to do.
    public var detail: String?

    init(
        _ kind: Kind,
        operation: String,
        device: String? = nil,
        errno: Errno? = nil,
        detail: String? = nil
    ) {
        self.kind = kind
        self.operation = operation
        self.device = device
        self.errno = errno
        self.detail = detail
    }

    /// A failed C call, with errno taken from a negative return value (``Errno/init(_:)``) or from `errno`.
    static func call(_ operation: String, device: String? = nil, errno: Errno, detail: String? = nil) -> Self {
        SensorError(.call, operation: operation, device: device, errno: errno, detail: detail)
    }

    /// Whether the failure means the device is no longer there.
    public var isDeviceGone: Bool {
        kind == .deviceGone || errno?.isDeviceGone == true
    }

    public var description: String {
        var text = device.map { "\($0): \(operation)" } ?? operation
        if let errno {
            text += ": \(errno)"
        }
        if let detail {
            text += errno == nil ? ": \(detail)" : " (\(detail))"
        }
        return text
    }
}
