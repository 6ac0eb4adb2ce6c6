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

/// Lines written straight to the standard streams with write(2), so that each line is out at once
/// (`watch` piped into a script) and no C `stdout` global is needed.
enum StandardStreams {
    /// Writes `text` and a newline to standard output.
    static func output(_ text: String) {
        write(Array(text.utf8), to: STDOUT_FILENO)
    }

    /// Writes JSON text as it came and a newline to standard output.
    static func output(json: some Collection<UInt8>) {
        write(Array(json), to: STDOUT_FILENO)
    }

    /// Writes `text` and a newline to standard error.
    static func error(_ text: String) {
        write(Array(text.utf8), to: STDERR_FILENO)
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) {
        let line = bytes.last == UInt8(ascii: "\n") ? bytes : bytes + [UInt8(ascii: "\n")]
        // A failure means the reader went away: nothing more to say.
        try? FileDescriptor(rawValue: descriptor).writeAll(line)
    }
}
