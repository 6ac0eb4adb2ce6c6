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

#if canImport(Glibc)
public import Glibc
#endif

/// The address of a Unix socket at a path in the file system (`sockaddr_un`), for bind(2) and connect(2).
public struct UnixSocketAddress: Sendable {
    /// The path, as given.
    public let path: String
    private let storage: sockaddr_un

    /// The address of the socket at `path`.
    /// - Throws: ``Errno/nameTooLong`` when the path does not fit `sun_path` (107 bytes and a NUL),
    ///   ``Errno/invalidArgument`` when it is empty or holds a NUL byte.
    public init(path: String) throws(Errno) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, !bytes.contains(0) else { throw Errno.invalidArgument }
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw Errno.nameTooLong }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        self.path = path
        self.storage = address
    }

    /// Calls `body` with the address as a `sockaddr` and its length, as bind(2) and connect(2) take them.
    public func withSocketAddress<Result>(
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> Result
    ) rethrows -> Result {
        try withUnsafePointer(to: storage) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                try body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }
}
