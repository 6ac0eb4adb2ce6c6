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
import OrientdTestSupport
import Testing

/// Runs a built executable of this package (or any program) and collects what it printed.
struct CommandRunner {
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The built `orientd` executable: `$ORIENTD_BIN`, else the one `swift build` put beside the test bundle.
    static func orientd() throws -> URL {
        let url: URL
        if let path = ProcessInfo.processInfo.environment["ORIENTD_BIN"], !path.isEmpty {
            url = URL(fileURLWithPath: path)
        } else {
            let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            url = bundle.deletingLastPathComponent().appendingPathComponent("orientd")
        }
        try #require(
            FileManager.default.isExecutableFile(atPath: url.path),
            "orientd is not built at \(url.path); run 'swift build' before 'swift test' (make test does)"
        )
        return url
    }

    /// The repository's root folder.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `executable` with `arguments`, feeding `input` on standard input (through ``ProgramRun``: only the
    /// standard descriptors inherited, output in files, a guard against a run that never ends).
    static func run(_ executable: URL, _ arguments: [String], input: String? = nil) throws -> Result {
        let outcome = ProgramRun.run([executable.path] + arguments, input: input ?? "", timeout: .seconds(300))
        return Result(status: outcome.status, standardOutput: outcome.output, standardError: outcome.errors)
    }

    /// A fresh temporary folder, removed by the caller.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
