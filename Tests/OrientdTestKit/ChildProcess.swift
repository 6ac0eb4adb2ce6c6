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

package import Foundation
import Glibc
import SystemSupport
package import Testing

/// How a child process ended.
package enum ExitStatus: Equatable, CustomStringConvertible {
    /// It called `exit` with this code.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)

    package var description: String {
        switch self {
        case .exited(let code): "exit \(code)"
        case .signalled(let signal): "signal \(signal) (\(String(cString: strsignal(signal))))"
        }
    }
}

/// A program run under a testbed's emulation: `LD_PRELOAD=libumockdev-preload.so.0`, `UMOCKDEV_DIR=<root>`.
///
/// Its stdout and stderr go to files (a pipe could fill and block it); read them at any time. It runs in a
/// process group of its own, with default signal dispositions and an empty signal mask.
package final class ChildProcess {
    /// The process id.
    package let pid: pid_t
    /// What was run, for messages.
    package let commandLine: String
    private let outputDirectory: URL
    private var status: ExitStatus?

    /// Starts `executable` (searched in `PATH`) under `testbed`'s emulation.
    /// - Parameter environment: extra variables, added after the emulation's.
    package init(
        _ executable: String,
        _ arguments: [String] = [],
        testbed: Testbed,
        environment extra: [String: String] = [:]
    ) throws {
        commandLine = ([executable] + arguments).joined(separator: " ")
        outputDirectory = FileManager.default.temporaryDirectory
            .appendingPathComponent("orientd-child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)

        var environment = ProcessInfo.processInfo.environment
        let preload = "libumockdev-preload.so.0"
        environment["LD_PRELOAD"] = [preload, environment["LD_PRELOAD"]].compactMap { $0 }
            .filter { !$0.isEmpty }.joined(separator: ":")
        environment["UMOCKDEV_DIR"] = testbed.rootDirectory
        environment.merge(extra) { _, new in new }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let flags = O_WRONLY | O_CREAT | O_TRUNC
        posix_spawn_file_actions_addopen(
            &actions,
            1,
            outputDirectory.appendingPathComponent("stdout").path,
            flags,
            0o644
        )
        posix_spawn_file_actions_addopen(
            &actions,
            2,
            outputDirectory.appendingPathComponent("stderr").path,
            flags,
            0o644
        )
        ProgramRun.closeInheritedDescriptors(&actions)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        ProgramRun.resetSignals(
            &attributes,
            [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGCHLD, SIGUSR1, SIGUSR2],
            flags: POSIX_SPAWN_SETPGROUP
        )

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawnp(&child, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            try? FileManager.default.removeItem(at: outputDirectory)
            throw TestbedError(operation: "posix_spawnp \(executable)", detail: "\(Errno(result))")
        }
        pid = child
    }

    deinit {
        if status == nil {
            kill(-pid, SIGKILL)
            var raw: Int32 = 0
            _ = waitpid(pid, &raw, 0)
        }
        try? FileManager.default.removeItem(at: outputDirectory)
    }

    /// Everything the child has written to stdout so far.
    package var standardOutput: [UInt8] { read("stdout") }
    /// Everything the child has written to stderr so far.
    package var standardError: [UInt8] { read("stderr") }
    /// The stdout text so far.
    package var outputText: String { String(decoding: standardOutput, as: UTF8.self) }
    /// The stderr text so far.
    package var errorText: String { String(decoding: standardError, as: UTF8.self) }
    /// The complete lines of stdout so far.
    package var outputLines: [String] {
        var lines = outputText.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.removeLast()  // the text after the last newline: empty, or a line not yet complete
        return lines
    }

    /// The exit status, once the child has ended (reaps it without blocking).
    package var exitStatus: ExitStatus? {
        if status == nil {
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid {
                status = Self.decode(raw)
            }
        }
        return status
    }

    /// Sends a signal to the child (not its group).
    package func signal(_ signal: Int32) {
        if exitStatus == nil { kill(pid, signal) }
    }

    /// Sends SIGINT.
    package func interrupt() { signal(SIGINT) }

    /// Sends SIGTERM.
    package func terminate() { signal(SIGTERM) }

    /// Sends SIGTERM and waits until the child has ended (at most 10 s, then SIGKILL to its group): for a
    /// deinit that removes a folder the child still writes to (a socket it deletes as it exits).
    package func terminateAndReap() {
        terminate()
        let deadline = ContinuousClock.now + .seconds(10)
        while exitStatus == nil, ContinuousClock.now < deadline { usleep(5_000) }
        if exitStatus == nil {
            kill(-pid, SIGKILL)
            var raw: Int32 = 0
            _ = waitpid(pid, &raw, 0)
            status = Self.decode(raw)
        }
    }

    /// Waits for the child to end. A child still running at `timeout` (a guard, not an expectation) is killed with
    /// its process group and recorded as a test failure with its output.
    @discardableResult
    package func wait(
        timeout: Duration = .seconds(60),
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> ExitStatus {
        if await poll(timeout: timeout, { self.exitStatus != nil }) {
            return exitStatus!
        }
        kill(-pid, SIGKILL)
        var raw: Int32 = 0
        _ = waitpid(pid, &raw, 0)
        status = Self.decode(raw)
        Issue.record(
            "\(commandLine) still running after \(timeout): killed.\n\(report)",
            sourceLocation: sourceLocation
        )
        return status!
    }

    /// Waits until `condition` holds; records a failure with the output (and returns false) when the child ends
    /// first or `timeout` passes.
    package func waitUntil(
        _ what: String,
        timeout: Duration = .seconds(60),
        sourceLocation: SourceLocation = #_sourceLocation,
        _ condition: () -> Bool
    ) async -> Bool {
        let met = await poll(timeout: timeout) { condition() || self.exitStatus != nil }
        if met, condition() { return true }
        let why = exitStatus.map { "ended (\($0)) before" } ?? "timed out after \(timeout) waiting until"
        Issue.record("\(commandLine) \(why) \(what).\n\(report)", sourceLocation: sourceLocation)
        return false
    }

    /// The command, its status and its output, for failure messages.
    package var report: String {
        "$ \(commandLine)\nstatus: \(exitStatus?.description ?? "running")\nstdout:\n\(outputText)\nstderr:\n\(errorText)"
    }

    private func read(_ name: String) -> [UInt8] {
        (FileManager.default.contents(atPath: outputDirectory.appendingPathComponent(name).path)).map(Array.init) ?? []
    }

    private static func decode(_ raw: Int32) -> ExitStatus {
        raw & 0x7f == 0 ? .exited((raw >> 8) & 0xff) : .signalled(raw & 0x7f)
    }
}

extension ChildProcess {
    /// The built `orientd`: `$ORIENTD_BIN`, else the one beside the test bundle (the test target depends on it).
    package static func orientdPath() throws -> String {
        if let path = ProcessInfo.processInfo.environment["ORIENTD_BIN"], !path.isEmpty { return path }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let path = bundle.deletingLastPathComponent().appendingPathComponent("orientd").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestbedError(operation: "orientd", detail: "not built at \(path); run 'swift build' first")
        }
        return path
    }

    /// Starts the built `orientd` with `arguments` under `testbed`'s emulation.
    package static func orientd(
        _ arguments: [String],
        testbed: Testbed,
        environment: [String: String] = [:]
    ) throws -> ChildProcess {
        try ChildProcess(try orientdPath(), arguments, testbed: testbed, environment: environment)
    }

    /// Starts the built `orientctl` (beside the test bundle, or `$ORIENTCTL_BIN`) under `testbed`.
    package static func orientctl(
        _ arguments: [String],
        testbed: Testbed,
        prefix: [String] = [],
        environment: [String: String] = [:]
    ) throws -> ChildProcess {
        let path: String
        if let override = ProcessInfo.processInfo.environment["ORIENTCTL_BIN"], !override.isEmpty {
            path = override
        } else {
            path =
                URL(fileURLWithPath: try orientdPath()).deletingLastPathComponent().appendingPathComponent("orientctl")
                .path
        }
        if prefix.isEmpty { return try ChildProcess(path, arguments, testbed: testbed, environment: environment) }
        return try ChildProcess(
            prefix[0],
            Array(prefix.dropFirst()) + [path] + arguments,
            testbed: testbed,
            environment: environment
        )
    }
}

/// Polls `condition` every few milliseconds until it holds (true) or `timeout` passes (false).
package func poll(timeout: Duration, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(5))
    }
    return condition()
}
