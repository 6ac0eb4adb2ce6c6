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

@Suite("orientd classify")
struct ClassifyCommandTests {
    /// Upright, then turned left edge up, then laid on its back: a laptop panel's three changes.
    private static var turnAndLayDown: String {
        var trace = TraceText()
        trace.hold(1, x: 0, y: -TraceText.g, z: 0)
        trace.hold(1, x: TraceText.g, y: 0, z: 0)
        trace.hold(1.5, x: 0, y: 0, z: TraceText.g)
        return trace.text
    }

    private struct Line: Decodable, Equatable {
        var device: String
        var interface: String
        var rotation: Int?
    }

    private static func lines(_ output: String) throws -> [Line] {
        try output.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
    }

    @Test("prints one JSON line per change, read from a file")
    func classifiesFile() throws {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("turn.csv")
        try Self.turnAndLayDown.write(to: path, atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(try CommandRunner.orientd(), ["classify", path.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            try Self.lines(result.standardOutput) == [
                Line(device: "landscape-left", interface: "landscape-right", rotation: 0),
                Line(device: "portrait", interface: "portrait", rotation: 90),
                Line(device: "face-up", interface: "portrait", rotation: 90),
            ]
        )
        // Every line carries the trace time of the sample that caused it, in order.
        let times = try result.standardOutput.split(separator: "\n").map { line -> Double in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["t"] as? Double)
        }
        #expect(times == times.sorted())
        #expect(times.count == 3 && times[1] > 1.0 && times[2] > 2.0)
    }

    @Test("reads standard input for '-' and names portrait panels with --natural portrait")
    func classifiesStandardInputOnPortraitPanel() throws {
        let result = try CommandRunner.run(
            try CommandRunner.orientd(),
            ["classify", "--natural", "portrait", "-"],
            input: Self.turnAndLayDown
        )
        #expect(result.status == 0, "\(result.standardError)")
        #expect(
            try Self.lines(result.standardOutput) == [
                Line(device: "portrait", interface: "portrait", rotation: 0),
                Line(device: "landscape-right", interface: "landscape-left", rotation: 90),
                Line(device: "face-up", interface: "landscape-left", rotation: 90),
            ]
        )
    }

    @Test("a missing file is a one-line error and a non-zero exit")
    func missingFile() throws {
        let result = try CommandRunner.run(try CommandRunner.orientd(), ["classify", "/nonexistent/trace.csv"])
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        let message = result.standardError.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!message.contains("\n"))
        #expect(message.contains("/nonexistent/trace.csv"))
        #expect(message.contains("No such file"))
    }

    @Test(
        "a malformed line is an error that names its line number",
        arguments: [
            ("t,x,y,z\n0,0,-9.8,0\n0.02,0,-9.8\n", "line 3"),
            ("# orientd-trace 1\nt,x,y,z\n0,0,-9.8,zero\n", "line 3"),
            ("# orientd-trace 7\n", "line 1"),
        ]
    )
    func malformedLine(input: String, line: String) throws {
        let result = try CommandRunner.run(try CommandRunner.orientd(), ["classify", "-"], input: input)
        #expect(result.status == 1)
        #expect(result.standardError.contains(line), "\(result.standardError)")
    }

    @Test(
        "bad options are usage errors with exit status 2",
        arguments: [
            ["classify", "--natural", "sideways", "-"],
            ["classify", "--face-up-angle", "30", "-"],
            ["classify", "--dwell-ms", "5000", "-"],
            ["classify"],
        ]
    )
    func usageErrors(arguments: [String]) throws {
        let result = try CommandRunner.run(try CommandRunner.orientd(), arguments, input: "")
        #expect(result.status == 2)
        #expect(!result.standardError.isEmpty)
    }

    @Test("--help describes the daemon and its commands")
    func help() throws {
        let result = try CommandRunner.run(try CommandRunner.orientd(), ["--help"])
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("accelerometer"))
        #expect(result.standardOutput.contains("classify"))
    }
}
