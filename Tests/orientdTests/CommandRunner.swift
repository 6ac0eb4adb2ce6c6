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

    /// Runs `executable` with `arguments`, feeding `input` on standard input.
    static func run(_ executable: URL, _ arguments: [String], input: String? = nil) throws -> Result {
        // Output goes to files, not pipes: a chatty child can never block on a full pipe.
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outputURL = folder.appendingPathComponent("stdout")
        let errorURL = folder.appendingPathComponent("stderr")
        let inputURL = folder.appendingPathComponent("stdin")
        try Data((input ?? "").utf8).write(to: inputURL)
        _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: try String(contentsOf: outputURL, encoding: .utf8),
            standardError: try String(contentsOf: errorURL, encoding: .utf8)
        )
    }

    /// A fresh temporary folder, removed by the caller.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("orientd-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
