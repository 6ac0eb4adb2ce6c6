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
import OrientdTestKit
import Testing

extension EmulatedDeviceTests {
    /// `orientctl constrain MASK -- COMMAND` against the real daemon: the constraint exactly while the command
    /// runs, its exit status passed through, SIGINT and SIGTERM passed on to it.
    @Suite struct ConstrainCommandTests {
        /// The daemon's allowed set now, read on a connection of the test's own.
        static func allowed(_ daemon: RunningDaemon) async throws -> [String]? {
            let connection = try daemon.connect()
            defer { connection.close() }
            return try await connection.call("get").result?["allowed"]?.strings
        }

        @Test func theConstraintHoldsWhileTheCommandRunsAndItsStatusPassesThrough() async throws {
            let testbed = Testbed()
            let sandbox = try DaemonSandbox()
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            defer { daemon.process.terminate() }
            let every = ["portrait", "portrait-upside-down", "landscape-left", "landscape-right"]
            #expect(try await Self.allowed(daemon) == every)

            // The command reads the daemon's state while it runs (through orientctl itself) and exits 7.
            let seen = sandbox.directory + "/seen"
            let orientctl = URL(fileURLWithPath: try ChildProcess.orientdPath()).deletingLastPathComponent()
                .appendingPathComponent("orientctl").path
            let script = "'\(orientctl)' --socket '\(sandbox.socketPath)' --json get --no-wait >'\(seen)'; exit 7"
            let run = try ChildProcess.orientctl(
                ["--socket", sandbox.socketPath, "constrain", "landscape", "--", "sh", "-c", script],
                testbed: testbed
            )
            #expect(await run.wait() == .exited(7), "\(run.report)")
            #expect(run.outputText.isEmpty, "constrain with a command prints nothing of its own: \(run.report)")
            let state = try String(contentsOfFile: seen, encoding: .utf8)
            #expect(state.contains(#""allowed":["landscape-left","landscape-right"]"#), "\(state)")
            #expect(try await Self.allowed(daemon) == every, "the constraint went with the command")

            let success = try ChildProcess.orientctl(
                ["--socket", sandbox.socketPath, "constrain", "portrait", "--", "true"],
                testbed: testbed
            )
            #expect(await success.wait() == .exited(0), "\(success.report)")
            let killed = try ChildProcess.orientctl(
                ["--socket", sandbox.socketPath, "constrain", "portrait", "--", "sh", "-c", "kill -KILL $$"],
                testbed: testbed
            )
            #expect(await killed.wait() == .exited(128 + SIGKILL), "a signal's end is 128 + N: \(killed.report)")
            let missing = try ChildProcess.orientctl(
                ["--socket", sandbox.socketPath, "constrain", "portrait", "--", "no-such-program-orientd"],
                testbed: testbed
            )
            #expect(await missing.wait() == .exited(127), "\(missing.report)")
            #expect(missing.errorText.contains("no-such-program-orientd"), "\(missing.report)")
            #expect(try await Self.allowed(daemon) == every)
        }

        @Test(arguments: [SIGINT, SIGTERM])
        func aSignalIsPassedOnToTheCommand(signal: Int32) async throws {
            let testbed = Testbed()
            let sandbox = try DaemonSandbox()
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            defer { daemon.process.terminate() }
            let (ready, got) = (sandbox.directory + "/ready", sandbox.directory + "/got")
            // The command says which signal it got and ends with a status of its own.
            let script = """
                trap 'echo INT >"\(got)"; exit 21' INT; trap 'echo TERM >"\(got)"; exit 22' TERM
                touch "\(ready)"; while :; do sleep 0.05; done
                """
            let run = try ChildProcess.orientctl(
                ["--socket", sandbox.socketPath, "constrain", "landscape-left", "--", "sh", "-c", script],
                testbed: testbed
            )
            #expect(
                await run.waitUntil("the command runs") { FileManager.default.fileExists(atPath: ready) },
                "\(run.report)"
            )
            #expect(try await Self.allowed(daemon) == ["landscape-left"])
            // status names the holder: orientctl's process and the command it runs.
            let status = try ChildProcess.orientctl(["--socket", sandbox.socketPath, "status"], testbed: testbed)
            #expect(await status.wait() == .exited(0), "\(status.report)")
            #expect(
                status.outputLines.contains {
                    $0.hasPrefix("  landscape-left:") && $0.contains("orientctl (pid \(run.pid)) for sh -c 'trap")
                },
                "\(status.report)"
            )
            kill(run.pid, signal)
            let name = signal == SIGINT ? "INT" : "TERM"
            #expect(await run.wait() == .exited(signal == SIGINT ? 21 : 22), "\(run.report)")
            #expect((try? String(contentsOfFile: got, encoding: .utf8)) == name + "\n")
            #expect(try await Self.allowed(daemon)?.count == 4, "the constraint went when orientctl ended")
        }

        @Test func aRefusedConstraintStartsNoCommand() async throws {
            let testbed = Testbed()
            let sandbox = try DaemonSandbox()
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            defer { daemon.process.terminate() }
            let lock = try ChildProcess.orientctl(
                ["--socket", sandbox.socketPath, "lock", "portrait"],
                testbed: testbed
            )
            #expect(await lock.wait() == .exited(0), "\(lock.report)")
            let marker = sandbox.directory + "/ran"
            let run = try ChildProcess.orientctl(
                ["--socket", sandbox.socketPath, "constrain", "landscape", "--", "touch", marker],
                testbed: testbed
            )
            #expect(await run.wait() == .exited(1), "the lock wins: \(run.report)")
            #expect(!FileManager.default.fileExists(atPath: marker))
        }
    }
}
