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

import CLibIIO
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// An owned libiio context: the IIO devices of the local machine or of a libiio URI.
///
/// A context is a snapshot: devices that appear later need a new context.
final class IIOContext {
    let pointer: OpaquePointer
    /// The URI it was made from; nil for the local context.
    let uri: String?

    /// Opens the local context (`iio_create_local_context`) or the one of `uri`
    /// (`iio_create_context_from_uri`, e.g. `ip:192.168.2.1`, `local:`).
    /// - Throws: ``SensorError`` naming the call and errno.
    init(uri: String?) throws(SensorError) {
        let created: OpaquePointer?
        let operation: String
        if let uri, !uri.isEmpty {
            created = iio_create_context_from_uri(uri)
            operation = "iio_create_context_from_uri(\(uri))"
        } else {
            created = iio_create_local_context()
            operation = "iio_create_local_context"
        }
        guard let created else {
            let error = Errno.current
            // One device whose attributes libiio cannot parse makes it refuse them all (EINVAL).
            let detail =
                error.rawValue == EINVAL
                ? "libiio cannot parse some IIO device's attributes (a scan element's index or type); iio_info fails alike"
                : "is an IIO subsystem present (/sys/bus/iio)?"
            throw SensorError.call(operation, errno: error, detail: detail)
        }
        pointer = created
        self.uri = uri
    }

    deinit {
        iio_context_destroy(pointer)
    }

    /// Whether attributes can also be read straight from sysfs (the local context).
    var isLocal: Bool { uri == nil || uri?.hasPrefix("local:") == true }

    /// Every device of the context (accelerometers, triggers, other sensors).
    var devices: [IIODevice] {
        (0..<iio_context_get_devices_count(pointer)).compactMap { index in
            iio_context_get_device(pointer, index).map { IIODevice(pointer: $0, context: self) }
        }
    }

    /// The device with this id (`iio:device0`), name or label.
    func device(named name: String) -> IIODevice? {
        iio_context_find_device(pointer, name).map { IIODevice(pointer: $0, context: self) }
    }
}
