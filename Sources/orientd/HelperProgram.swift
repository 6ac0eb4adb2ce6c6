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

/// A system tool run to the end (`systemd-hwdb`, `udevadm`, `systemctl`), its output collected.
struct HelperProgram {
    /// The exit status (128+N when killed by signal N; 127 when it could not be started).
    var status: Int32
    /// Its standard output and standard error together.
    var output: String

    /// Runs `arguments` (the program found on PATH) with no signal blocked, and waits for it.
    static func run(_ arguments: [String]) -> HelperProgram {
        let reader: FileDescriptor
        let writer: FileDescriptor
        do throws(Errno) {
            (reader, writer) = try FileDescriptor.makePipe()
        } catch {
            return HelperProgram(status: 127, output: "\(arguments[0]): \(error)")
        }
        defer { reader.close() }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, writer.rawValue, 1)
        posix_spawn_file_actions_adddup2(&actions, writer.rawValue, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var child: pid_t = 0
        let spawned = posix_spawnp(&child, arguments[0], &actions, &attributes, argv, environ)
        writer.close()
        guard spawned == 0 else {
            return HelperProgram(status: 127, output: "\(arguments[0]): \(Errno(spawned))")
        }
        let bytes = (try? reader.readToEnd(maximumSize: 1 << 20)) ?? []
        var status: Int32 = 0
        _ = retryingInterrupts { waitpid(child, &status, 0) }
        let code = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return HelperProgram(status: code, output: String(decoding: bytes, as: UTF8.self))
    }
}
