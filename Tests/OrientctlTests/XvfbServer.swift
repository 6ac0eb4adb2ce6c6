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

/// A real X server for a test: Xvfb on a free display, with RandR and XInput.
final class XvfbServer {
    /// `:N`, for `DISPLAY`.
    private(set) var display: String
    private let pid: pid_t
    private var running = true

    /// Whether Xvfb starts here (installed, and allowed to run); tried once.
    static let canStart: Bool = {
        guard let server = XvfbServer() else { return false }
        server.stop()
        return true
    }()

    /// Starts Xvfb with one 1280x800 screen; nil if it is not installed or does not come up.
    init?() {
        let candidates = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"]
        guard let executable = candidates.first(where: FileManager.default.isExecutableFile(atPath:)) else {
            return nil
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        // Close-on-exec in this process, so that no program another test starts holds the pipe open.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[0]) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        ProgramRun.closeInheritedDescriptors(&actions)
        // The test process blocks signals in some threads; Xvfb must take SIGTERM to stop cleanly.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        ProgramRun.resetSignals(&attributes, [SIGINT, SIGTERM, SIGPIPE, SIGHUP])
        // -displayfd 1: Xvfb picks a free display and writes its number on standard output when ready.
        let words = [executable, "-displayfd", "1", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
        }
        var child: pid_t = 0
        let result = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        close(ends[1])
        guard result == 0 else { return nil }
        pid = child
        display = ""

        var entry = pollfd(fd: ends[0], events: Int16(POLLIN), revents: 0)
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64)
        while !text.contains(UInt8(ascii: "\n")), poll(&entry, 1, 20_000) > 0 {
            let count = chunk.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            if count <= 0 { break }
            text += chunk[..<count]
        }
        let number = Int(String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        guard let number else {
            stop()
            return nil
        }
        display = ":\(number)"
    }

    deinit {
        stop()
    }

    /// Stops the server and waits for it.
    func stop() {
        guard running else { return }
        running = false
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

    /// Runs an X client (`xrandr`, `xinput`) against this server; its status and standard output.
    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": display]) { _, new in new }
        let outcome = ProgramRun.run(arguments, environment: environment)
        return (outcome.status, outcome.output)
    }
}
