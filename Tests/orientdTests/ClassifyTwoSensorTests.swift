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

/// `orientd classify` on two-sensor traces: the hinge angle gives tablet mode, and `--auto-rotate tablet-mode`
/// keeps the interface natural in laptop mode.
@Suite("orientd classify, two sensors")
struct ClassifyTwoSensorTests {
    static let g = 9.80665

    /// A two-sensor trace: the display at 25 Hz, the base at 10 Hz, each holding its reading for its stretch.
    static func trace(_ stretches: [(seconds: Double, display: [Double], base: [Double])]) -> String {
        var text = "# orientd-trace 1\n# rate_hz=25\nt,x,y,z,bx,by,bz\n"
        var start = 0.0
        for stretch in stretches {
            for tick in 0..<Int(stretch.seconds * 50) {
                let t = start + Double(tick) / 50
                let display = tick % 2 == 0 ? stretch.display.map { "\($0)" }.joined(separator: ",") : ",,"
                let base = tick % 5 == 0 ? stretch.base.map { "\($0)" }.joined(separator: ",") : ",,"
                if display != ",," || base != ",," { text += "\(t),\(display),\(base)\n" }
            }
            start += stretch.seconds
        }
        return text
    }

    /// The lid at 110° on a flat base (systemd's frame: z −g); a tent at 300° (the base leaning back 120°); then the whole machine turned
    /// left edge up, its hinge vertical.
    static let laptopTentPortrait = trace([
        (2, [0, -g * 0.9397, g * 0.3420], [0, 0, -g]),
        (2, [0, -g * 0.8660, -g * 0.5], [0, -g * 0.8660, g * 0.5]),
        (2, [g, 0, 0], [g, 0, 0]),
    ])

    /// The lid at 110° on a flat base, then the whole machine turned left edge up (hinge vertical).
    static let laptopPortrait = trace([
        (2, [0, -g * 0.9397, g * 0.3420], [0, 0, -g]),
        (2, [g, 0, 0], [g, 0, 0]),
    ])

    static func objects(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    @Test("tablet mode from the hinge; in tablet mode the interface follows the turn")
    func tentThenTurned() throws {
        let result = try CommandRunner.run(
            try CommandRunner.orientd(),
            ["classify", "--auto-rotate", "tablet-mode", "-"],
            input: Self.laptopTentPortrait
        )
        #expect(result.status == 0, "\(result.standardError)")
        let lines = try Self.objects(result.standardOutput)
        let modes = lines.compactMap { $0["tablet_mode"] as? Bool }
        #expect(modes == [false, true], "\(result.standardOutput)")
        let hinges = lines.compactMap { $0["hinge"] as? Double }
        #expect(hinges.count == 2)
        #expect(abs(hinges[0] - 110) < 3 && hinges[1] >= 200, "\(hinges)")
        let interfaces = lines.compactMap { $0["interface"] as? String }
        #expect(interfaces.last == "portrait", "\(result.standardOutput)")
        let tabletTime = try #require(lines.first { $0["tablet_mode"] as? Bool == true }?["t"] as? Double)
        // The pose jumps at 2 s: each reading's direction and the angle must then stay steady for 400 ms.
        #expect(tabletTime > 2 && tabletTime < 3.5, "\(tabletTime)")
    }

    @Test("in laptop mode the interface stays natural while the device turns; with always it follows")
    func laptopTurned() throws {
        for (autoRotate, interface) in [("tablet-mode", "landscape-right"), ("always", "portrait")] {
            let result = try CommandRunner.run(
                try CommandRunner.orientd(),
                ["classify", "--auto-rotate", autoRotate, "-"],
                input: Self.laptopPortrait
            )
            #expect(result.status == 0, "\(result.standardError)")
            let lines = try Self.objects(result.standardOutput)
            #expect(lines.compactMap { $0["tablet_mode"] as? Bool } == [false], "\(result.standardOutput)")
            #expect(lines.compactMap { $0["device"] as? String }.last == "portrait", "\(result.standardOutput)")
            #expect(lines.compactMap { $0["interface"] as? String }.last == interface, "\(autoRotate)")
        }
    }

    @Test(
        "bad hinge options are usage errors that give the range",
        arguments: [
            (["--tablet-angle", "180"], "181"), (["--laptop-angle", "200"], "179"),
            (["--auto-rotate", "never"], "always"),
        ]
    )
    func usageErrors(options: [String], hint: String) throws {
        let result = try CommandRunner.run(try CommandRunner.orientd(), ["classify"] + options + ["-"], input: "")
        #expect(result.status == 2)
        #expect(result.standardError.contains(hint), "\(result.standardError)")
    }
}
