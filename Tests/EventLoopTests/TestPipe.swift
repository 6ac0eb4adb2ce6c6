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

import Glibc

/// A failed set-up call in a test.
struct SetUpFailure: Error, CustomStringConvertible {
    /// What failed, with errno.
    let description: String
}

/// A non-blocking pipe whose ends close when it is released.
final class TestPipe {
    /// The end the loop watches for reading.
    let readEnd: Int32
    /// The end the test writes to; -1 once closed.
    private(set) var writeEnd: Int32

    init() throws {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw SetUpFailure(description: "pipe: errno \(errno)")
        }
        readEnd = fds[0]
        writeEnd = fds[1]
        // pipe2 needs _GNU_SOURCE, which Swift's Glibc module does not define.
        for fd in fds {
            guard fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0, fcntl(fd, F_SETFD, FD_CLOEXEC) == 0 else {
                throw SetUpFailure(description: "fcntl: errno \(errno)")
            }
        }
    }

    deinit {
        close(readEnd)
        closeWriteEnd()
    }

    /// Writes one byte, making the read end readable.
    func writeByte() throws {
        var byte: UInt8 = 42
        guard write(writeEnd, &byte, 1) == 1 else {
            throw SetUpFailure(description: "write: errno \(errno)")
        }
    }

    /// Reads what is there without blocking; returns the number of bytes read (0 when empty).
    func drain() -> Int {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(readEnd, &buffer, buffer.count)
        return max(0, count)
    }

    /// Closes the write end, so that the read end reports a hang-up.
    func closeWriteEnd() {
        guard writeEnd >= 0 else { return }
        close(writeEnd)
        writeEnd = -1
    }
}
