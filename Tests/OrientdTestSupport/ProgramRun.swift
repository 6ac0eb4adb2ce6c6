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

import Foundation
package import Glibc
import SystemSupport

/// Spawning rules every test rig follows, and a short program run to its end.
///
/// Tests run in parallel in one process, so a descriptor one test holds open without close-on-exec (a pipe end,
/// a socket) would be inherited by a program another test starts at that moment, and held open as long as that
/// program lives. A test waiting for the end of that pipe or connection would then wait for an unrelated daemon.
/// Children therefore get only the descriptors they are given: every other one is closed in the child.
package enum ProgramRun {
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which Swift's Glibc module does not declare (it
    /// is a GNU extension).
    private static let addCloseFrom: AddCloseFrom? = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map {
        unsafeBitCast($0, to: AddCloseFrom.self)
    }

    /// Adds to `actions` the closing of every descriptor from 3 up; 0, 1 and 2 are what the child is given.
    package static func closeInheritedDescriptors(_ actions: inout posix_spawn_file_actions_t) {
        guard let addCloseFrom else {
            // An older C library: close what is open now (a descriptor opened in between may still leak).
            let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            for descriptor in open.compactMap(Int32.init) where descriptor > 2 {
                posix_spawn_file_actions_addclose(&actions, descriptor)
            }
            return
        }
        _ = addCloseFrom(&actions, 3)
    }

    /// Sets `attributes` so that the child starts with `signals` at their default action and none blocked: the test
    /// process blocks signals in some threads and ignores others, and a child would inherit both.
    /// - Parameter flags: further `POSIX_SPAWN_*` flags, such as `POSIX_SPAWN_SETPGROUP`.
    package static func resetSignals(
        _ attributes: inout posix_spawnattr_t,
        _ signals: [Int32] = [SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGCHLD],
        flags: Int32 = 0
    ) {
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in signals { sigaddset(&defaults, signal) }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | flags))
    }

    /// How a run ended: its status (128 + the signal after a signal) and what it wrote.
    package struct Outcome {
        package let status: Int32
        /// What it wrote on standard output.
        package let output: String
        /// What it wrote on standard error (and why it was killed, if it was).
        package let errors: String

        package init(status: Int32, output: String, errors: String) {
            self.status = status
            self.output = output
            self.errors = errors
        }
    }

    /// Runs `arguments` (the program found on `PATH`) to its end with `input` on standard input, its output in
    /// files (a pipe's end could be held open by another child). A program still running after `timeout` (a
    /// guard, not an expectation) is killed, and its status says so.
    /// - Parameter environment: the whole environment; nil: the test process's own.
    package static func run(
        _ arguments: [String],
        environment: [String: String]? = nil,
        input: String = "",
        timeout: Duration = .seconds(30)
    ) -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-run-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(input.utf8).write(to: folder.appendingPathComponent("stdin"))
        } catch {
            return Outcome(status: -1, output: "", errors: "\(arguments[0]): \(error)")
        }
        defer { try? FileManager.default.removeItem(at: folder) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, folder.appendingPathComponent("stdin").path, O_RDONLY, 0)
        let flags = O_WRONLY | O_CREAT | O_TRUNC
        posix_spawn_file_actions_addopen(&actions, 1, folder.appendingPathComponent("stdout").path, flags, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, folder.appendingPathComponent("stderr").path, flags, 0o644)
        closeInheritedDescriptors(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        resetSignals(&attributes)

        let merged = environment ?? ProcessInfo.processInfo.environment
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawnp(&child, arguments[0], &actions, &attributes, argv, envp)
        guard result == 0 else { return Outcome(status: 127, output: "", errors: "\(arguments[0]): \(Errno(result))") }

        let deadline = ContinuousClock.now + timeout
        var raw: Int32 = 0
        var killed = false
        while waitpid(child, &raw, WNOHANG) != child {
            if !killed, ContinuousClock.now > deadline {
                kill(child, SIGKILL)
                killed = true
            }
            usleep(2_000)
        }
        let status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        let read = { (name: String) in
            (try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? ""
        }
        let errors = read("stderr") + (killed ? "\n(killed after \(timeout))" : "")
        return Outcome(status: status, output: read("stdout"), errors: errors)
    }
}
