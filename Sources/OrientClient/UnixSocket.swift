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

import Synchronization
package import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A connected `AF_UNIX` stream socket: owns the descriptor and closes it exactly once, so that a write
/// racing a close never reaches a descriptor number the process has reused meanwhile.
package final class UnixSocket: Sendable {
    /// The descriptor, for the read source; valid until ``close()``.
    package let descriptor: Int32
    private let isClosed = Mutex(false)

    /// Connects to `path`.
    /// - Throws: the errno of socket(2) or connect(2); `ENAMETOOLONG` for a path that does not fit `sun_path`.
    package init(connectingTo path: String) throws(Errno) {
        // Non-blocking for reading until EAGAIN (a read source reports readiness, not how much).
        descriptor = try FileDescriptor.connect(toUnixSocketAt: path, nonBlocking: true).rawValue
    }

    deinit {
        close()
    }

    /// Writes all of `bytes` with send(2), without SIGPIPE, made again when a signal interrupts it; while the daemon reads slowly, waits
    /// until it has room (it bounds its own queue, not ours).
    /// - Throws: the errno of send(2); `EBADF` once closed.
    package func send(_ bytes: some Collection<UInt8>) throws(Errno) {
        try isClosed.withLock { closed throws(Errno) in
            guard !closed else { throw Errno.badFileDescriptor }
            try FileDescriptor(rawValue: descriptor).writeAll(Array(bytes), using: .send)
        }
    }

    /// Reads what is available with read(2) into `buffer`, made again when a signal interrupts it: the byte count,
    /// 0 at the end of the stream.
    /// - Throws: the errno of read(2), `EAGAIN` when nothing is left to read.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try FileDescriptor(rawValue: descriptor).read(into: buffer)
    }

    /// Closes the descriptor (once).
    package func close() {
        isClosed.withLock { closed in
            guard !closed else { return }
            closed = true
            Glibc.close(descriptor)
        }
    }
}
