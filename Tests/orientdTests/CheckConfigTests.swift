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

/// `orientd check-config` and `orientd run --config` through the built binary.
@Suite struct CheckConfigTests {
    private func withConfiguration(_ text: String, _ body: (String) throws -> Void) throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("orientd.conf")
        try Data(text.utf8).write(to: file)
        try body(file.path)
    }

    @Test func printsEveryKeyWithItsValueAndSource() throws {
        let text = "# test\n[Sensor]\nRate = 50\n\n[Policy]\nSupported=landscape\nAutoRotate=tablet-mode\n"
        try withConfiguration(text) { path in
            let result = try CommandRunner.run(CommandRunner.orientd(), ["check-config", "--config", path])
            #expect(result.status == 0, "\(result.standardError)")
            let lines = result.standardOutput.split(separator: "\n").map(String.init)
            let assignments = lines.filter { !$0.hasPrefix("#") && !$0.hasPrefix("[") }
            #expect(assignments.count == 25, "\(result.standardOutput)")
            #expect(lines.contains { $0.hasPrefix("Rate=50 ") && $0.hasSuffix("# \(path):3") })
            #expect(lines.contains { $0.hasPrefix("Supported=landscape ") && $0.hasSuffix("# \(path):6") })
            #expect(lines.contains { $0.hasPrefix("FilterMs=100 ") && $0.hasSuffix("# default") })
            #expect(lines.contains { $0.hasPrefix("Socket=/run/orientd/socket ") && $0.hasSuffix("# default") })
            #expect(lines.contains("# \(path)"))
            #expect(lines.contains { $0.hasPrefix("AutoRotate=tablet-mode ") && $0.hasSuffix("# \(path):7") })
            #expect(!result.standardOutput.contains("notice"), "tablet-mode is in force, nothing to warn about")
            #expect(lines.contains { $0.hasPrefix("Compat=no ") && $0.hasSuffix("# default") })
            for section in ["Sensor", "Classifier", "Policy", "Control", "Server", "DBus", "Log"] {
                #expect(lines.contains("[\(section)]"))
            }
        }
    }

    @Test func aMissingFileGivesTheDefaults() throws {
        let result = try CommandRunner.run(
            CommandRunner.orientd(),
            ["check-config", "--config", "/nonexistent/orientd-test.conf"]
        )
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("# /nonexistent/orientd-test.conf (not found)"))
        #expect(result.standardOutput.contains("Level=info"))
    }

    @Test func everyMistakeOnStandardErrorAndExit2() throws {
        try withConfiguration("[Sensor]\nRate=1000\n[Server]\nMaxClients=0\nBogus=1\n") { path in
            let result = try CommandRunner.run(CommandRunner.orientd(), ["check-config", "--config", path])
            #expect(result.status == 2)
            #expect(result.standardOutput.isEmpty)
            let lines = result.standardError.split(separator: "\n")
            #expect(lines.count == 3, "\(result.standardError)")
            #expect(
                result.standardError.contains(
                    "\(path):2: [Sensor] Rate=1000: out of range; allowed: samples per second, 5–400"
                )
            )
            #expect(
                result.standardError.contains(
                    "\(path):4: [Server] MaxClients=0: out of range; allowed: connections, 1–4096"
                )
            )
            #expect(result.standardError.contains("\(path):5: [Server] Bogus=1: unknown key"))
        }
    }

    @Test func runRefusesABadConfigurationWithExit2() throws {
        try withConfiguration("[Classifier]\n\nDwellMs=5000\n") { path in
            let folder = try CommandRunner.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let socket = folder.appendingPathComponent("socket").path
            let result = try CommandRunner.run(
                CommandRunner.orientd(),
                ["run", "--config", path, "--socket", socket, "--state-dir", folder.path]
            )
            #expect(result.status == 2)
            #expect(result.standardError.contains("\(path):3: [Classifier] DwellMs=5000: out of range; allowed:"))
            #expect(!FileManager.default.fileExists(atPath: socket))
        }
    }
}
