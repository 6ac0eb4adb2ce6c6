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
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How orientctl starts every program it runs (control tools, event streams, the user's commands): found on
/// `PATH`, with SIGINT, SIGTERM and SIGPIPE at their defaults and no signal blocked (orientctl ignores SIGINT and
/// SIGTERM, taking them from a dispatch source, and may run this on a thread that blocks signals; a child
/// inherits both).
enum ProgramSpawn {
    /// What a descriptor of the child becomes.
    enum Redirection {
        /// A file opened for it (`/dev/null`).
        case open(path: String, flags: Int32)
        /// A copy of one of orientctl's descriptors.
        case duplicate(Int32)
    }

    /// Starts `arguments` and returns its pid.
    /// - Parameters:
    ///   - environment: `NAME=value` strings; nil: orientctl's own.
    ///   - redirections: the child's descriptors (0, 1, 2) to set; the others it inherits, close-on-exec apart.
    ///   - ownProcessGroup: whether it leads a process group of its own, so that what it starts can be killed
    ///     with it.
    /// - Returns: the pid, or the errno of `posix_spawnp` (ENOENT: not found on PATH).
    static func spawn(
        _ arguments: [String],
        environment: [String]? = nil,
        redirections: [(descriptor: Int32, to: Redirection)],
        ownProcessGroup: Bool = false
    ) -> Result<pid_t, SpawnFailure> {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        var flags = POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK
        if ownProcessGroup {
            flags |= POSIX_SPAWN_SETPGROUP
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (descriptor, redirection) in redirections {
            switch redirection {
            case .open(let path, let openFlags):
                posix_spawn_file_actions_addopen(&actions, descriptor, path, openFlags, 0)
            case .duplicate(let source): posix_spawn_file_actions_adddup2(&actions, source, descriptor)
            }
        }

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup($0) } + [nil] }
        defer {
            for pointer in argv + (envp ?? []) { free(pointer) }
        }
        var child: pid_t = 0
        let result =
            if let envp {
                posix_spawnp(&child, arguments[0], &actions, &attributes, argv, envp)
            } else {
                posix_spawnp(&child, arguments[0], &actions, &attributes, argv, environ)
            }
        return result == 0 ? .success(child) : .failure(SpawnFailure(errno: result))
    }
}

/// A program could not be started: the errno of `posix_spawnp`.
struct SpawnFailure: Error {
    var errno: Int32
}
