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
import Glibc
import OrientdTestSupport
import Testing

/// The orientctl binary built beside this test bundle, run as a child with its output in files.
final class OrientctlProcess {
    /// How a run ended: its exit status, or 128 + the signal.
    private(set) var status: Int32?
    let pid: pid_t
    private let directory: String

    /// The orientctl next to the test runner (`swift build` puts both in the same folder).
    static var executable: String {
        let runner = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? ""
        var folder = URL(fileURLWithPath: runner).deletingLastPathComponent()
        // On platforms where the runner sits inside a bundle, climb out of it.
        while folder.path.contains(".xctest") { folder.deleteLastPathComponent() }
        return folder.appendingPathComponent("orientctl").path
    }

    /// Starts `orientctl arguments…` with `environment` added, its output going to files in `directory`.
    init(_ arguments: [String], in directory: String, environment extra: [String: String] = [:]) throws {
        self.directory = directory
        var environment = ProcessInfo.processInfo.environment
        environment["ORIENTD_SOCKET"] = nil
        environment.merge(extra) { _, new in new }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, directory + "/stdout", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, directory + "/stderr", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        ProgramRun.closeInheritedDescriptors(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        ProgramRun.resetSignals(&attributes, [SIGINT, SIGTERM, SIGPIPE])

        let words = [Self.executable] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, Self.executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw PeerError("posix_spawn \(Self.executable): \(result)") }
        pid = child
    }

    deinit {
        if status == nil {
            kill(pid, SIGKILL)
            var raw: Int32 = 0
            waitpid(pid, &raw, 0)
        }
    }

    /// Runs orientctl to its end.
    static func run(
        _ arguments: [String],
        in directory: String,
        environment: [String: String] = [:]
    ) async throws -> OrientctlProcess {
        let process = try OrientctlProcess(arguments, in: directory, environment: environment)
        try await process.wait()
        return process
    }

    /// Waits for the end; kills it after `timeout` (a guard only).
    @discardableResult
    func wait(timeout: Duration = .seconds(30)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while status == nil {
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid {
                status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
            } else if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                throw PeerError("orientctl still running after \(timeout)")
            } else {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        return status!
    }

    /// Sends a signal.
    func signal(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Standard output so far.
    var output: String { read("stdout") }
    /// Standard error so far.
    var errorOutput: String { read("stderr") }

    /// Waits until standard output holds `count` lines; fails after `timeout` (a guard only).
    func waitForOutputLines(_ count: Int, timeout: Duration = .seconds(30)) async throws -> [String] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let lines = output.split(separator: "\n").map(String.init)
            if lines.count >= count { return lines }
            guard ContinuousClock.now < deadline else {
                // What orientctl said, and where each of its threads waits (gdb, where it is installed).
                let stacks = ProgramRun.run(["gdb", "-p", String(pid), "-batch", "-ex", "thread apply all bt"]).output
                throw PeerError(
                    "only \(lines) after \(timeout); standard error: \(errorOutput)\nthreads of orientctl:\n\(stacks)"
                )
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    private func read(_ name: String) -> String {
        (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? ""
    }
}
