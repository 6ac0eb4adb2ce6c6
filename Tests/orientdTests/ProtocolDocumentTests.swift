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
import Testing

/// The examples of docs/protocol.md, run against a real daemon (no accelerometer needed: it
/// serves with `sensor: absent`).
@Suite("docs/protocol.md examples")
struct ProtocolDocumentTests {
    /// The fenced code blocks of the document with the given language tag.
    static func blocks(_ language: String) throws -> [String] {
        let text = try String(
            contentsOf: CommandRunner.repositoryRoot.appendingPathComponent("docs/protocol.md"),
            encoding: .utf8
        )
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```\(language)" {
                current = []
            } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// A daemon on a socket in a fresh folder; stopped by the caller.
    static func startDaemon(in folder: URL) throws -> (Process, String) {
        let socket = folder.appendingPathComponent("socket").path
        let daemon = Process()
        daemon.executableURL = try CommandRunner.orientd()
        daemon.arguments = ["run", "--socket", socket, "--state-dir", folder.appendingPathComponent("state").path]
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) {
            usleep(10_000)
        }
        return (daemon, socket)
    }

    @Test func theShellAndPythonExamplesWork() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (daemon, socket) = try Self.startDaemon(in: folder)
        defer {
            daemon.terminate()
            daemon.waitUntilExit()
        }
        let environment = ["ORIENTD_SOCKET=\(socket)"]

        let shell = try #require(try Self.blocks("sh").first)
        let shellRun = try CommandRunner.run(URL(fileURLWithPath: "/usr/bin/env"), environment + ["sh", "-c", shell])
        #expect(shellRun.status == 0, "\(shellRun.standardError)")
        let reply = try JSONSerialization.jsonObject(with: Data(shellRun.standardOutput.utf8)) as? [String: Any]
        let state = try #require(reply?["result"] as? [String: Any], "\(shellRun.standardOutput)")
        #expect(state["device"] as? String == "unknown")

        let python = try #require(try Self.blocks("python").first)
        let script = folder.appendingPathComponent("example.py")
        try python.write(to: script, atomically: true, encoding: .utf8)
        let pythonRun = try CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            environment + ["python3", script.path]
        )
        #expect(pythonRun.status == 0, "\(pythonRun.standardError)")
        let lines = pythonRun.standardOutput.split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(3)) == ["protocol 1", "device unknown interface unknown rotation None", "count 1"])
        #expect(lines.last == "count 0")
        // Between begin and end, the sensor's event (stopped → absent here, with no accelerometer) is printed.
        #expect(lines.dropFirst(3).dropLast().allSatisfy { $0.hasPrefix("event: sensor") }, "\(lines)")
    }

    @Test func theDocumentedStateIsWhatTheDaemonSends() throws {
        let json = try #require(try Self.blocks("json").first)
        let documented = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (daemon, socket) = try Self.startDaemon(in: folder)
        defer {
            daemon.terminate()
            daemon.waitUntilExit()
        }
        let run = try CommandRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["socat", "-t", "1", "-", "UNIX-CONNECT:\(socket)"],
            input: "{\"method\": \"get\"}\n"
        )
        let reply = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8)) as? [String: Any]
        let state = try #require(reply?["result"] as? [String: Any], "\(run.standardOutput)")
        #expect(Set(state.keys) == Set(documented.keys))
    }
}
