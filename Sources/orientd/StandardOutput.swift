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
#elseif canImport(Musl)
import Musl
#endif

/// Buffered writes to standard output through write(2), flushed when the buffer fills and at the end.
final class StandardOutput {
    private var buffer: [UInt8] = []
    private let limit = 16 * 1024

    deinit {
        flush()
    }

    func write(_ text: String) {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= limit { flush() }
    }

    func flush() {
        // A failure means stdout closed (a pipe's reader left): nothing more to say.
        try? FileDescriptor.standardOutput.writeAll(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
