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

import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Which file a path or an open descriptor is: its device and inode numbers, as stat(2) gives them.
///
/// Two identities differ when the file at a path was replaced (a new file renamed over it, or removed and made
/// again), while writing to the file leaves its identity alone: a reader holding a descriptor compares the two to
/// learn that the path now names another file.
struct FileIdentity: Sendable, Hashable {
    /// The device that holds the file (`st_dev`).
    let device: UInt64
    /// The file's inode number on that device (`st_ino`).
    let inode: UInt64

    /// The identity of the file open on `descriptor`: one fstat(2).
    /// - Throws: the errno of fstat(2).
    init(of descriptor: FileDescriptor) throws(Errno) {
        var status = stat()
        _ = try valueOrErrno { fstat(descriptor.rawValue, &status) }
        self.init(status)
    }

    /// The identity of the file at `path` now, links followed: one stat(2).
    /// - Throws: the errno of stat(2), such as ``Errno/noSuchFileOrDirectory``.
    ///
    /// The path goes to stat(2) as its own bytes (`withCString`, which a native string gives without a copy), not
    /// through the implicit conversion of a `String` argument, which copies it into a new array each call: a poller
    /// asks this twice a second.
    init(ofFileAt path: String) throws(Errno) {
        var status = stat()
        _ = try valueOrErrno { path.withCString { stat($0, &status) } }
        self.init(status)
    }

    private init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
