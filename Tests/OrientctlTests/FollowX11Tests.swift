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
import OrientClient
import OrientProtocol
import OrientationCore
import OrientdTestSupport
import Testing

/// `orientctl follow --backend x11` against a real X server (Xvfb), with the real xrandr and xinput.
@Suite(
    "orientctl follow on a real X server",
    .timeLimit(.minutes(2)),
    .enabled(
        if: XvfbServer.canStart,
        "Xvfb cannot start here: install xvfb, x11-xserver-utils and xinput (scripts/install-deps)"
    )
)
struct FollowX11Tests {
    static let device = "Virtual core XTEST pointer"

    @Test("each change turns the output with xrandr, or reports the server's refusal, and sets the matrix")
    func rotatesTheXServer() async throws {
        let server = try #require(XvfbServer())
        defer { server.stop() }
        // Xvfb's RandR may offer only `normal`; then xrandr refuses the others, and follow must say so.
        let before = try server.run(["xrandr", "--query"])
        let output = try #require(Self.connectedOutput(in: before.output), "no connected output in:\n\(before.output)")
        let rotates = output.line.contains("(normal left inverted right")

        try await withTemporaryDirectory { directory in
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                ["follow", "--backend", "x11", "--socket", peer.path, "--touch", Self.device],
                in: directory,
                environment: ["DISPLAY": server.display]
            )
            let connection = try await peer.accept()
            #expect(try await connection.readLine() == #"{"id": 1, "method": "begin"}"#)
            let tour: [(DeviceOrientation, InterfaceOrientation, String, [Int])] = [
                (.landscapeLeft, .landscapeRight, "normal", [1, 0, 0, 0, 1, 0, 0, 0, 1]),
                (.portrait, .portrait, "left", [0, -1, 1, 1, 0, 0, 0, 0, 1]),
                (.landscapeRight, .landscapeLeft, "inverted", [-1, 0, 1, 0, -1, 1, 0, 0, 1]),
                (.portraitUpsideDown, .portraitUpsideDown, "right", [0, 1, 0, -1, 0, 1, 0, 0, 1]),
                (.landscapeLeft, .landscapeRight, "normal", [1, 0, 0, 0, 1, 0, 0, 0, 1]),
            ]
            for (index, (device, interface, rotate, matrix)) in tour.enumerated() {
                let state = Fixture.state(device: device, interface: interface, seq: UInt64(index + 1))
                let reported = (process.output + process.errorOutput).count
                if index == 0 {
                    try connection.send(Fixture.result(1, BeginResult(count: 1, state: state)))
                } else {
                    try connection.send(Fixture.event(.interface, state))
                }
                // The change is done when follow prints it, or reports its failure.
                try await Self.waitUntil { (process.output + process.errorOutput).count > reported }

                #expect(try Self.matrix(of: Self.device, on: server) == matrix, "\(rotate)")
                let now = try #require(Self.connectedOutput(in: try server.run(["xrandr", "--query"]).output))
                if rotates || rotate == "normal" {
                    #expect(now.rotation == rotate, "\(now.line)")
                    #expect(process.output.hasSuffix(state.orientationLine + "\n"))
                } else {
                    #expect(now.rotation == "normal", "\(now.line)")
                    #expect(
                        process.errorOutput.contains(
                            "orientctl: cannot apply interface=\(interface.wireName) rotation=\(index * 90): "
                                + "'xrandr --output \(output.name) --rotate \(rotate)' exited with status 1: "
                        ),
                        "\(process.errorOutput)"
                    )
                }
            }
            process.signal(SIGTERM)
            #expect(try await process.wait() == 0)
            print("Xvfb \(rotates ? "rotates" : "offers only normal"); follow said on stderr:\n\(process.errorOutput)")
        }
    }

    /// The first connected output of `xrandr --query` and its rotation (`normal` when none is shown).
    private static func connectedOutput(in text: String) -> (name: String, rotation: String, line: String)? {
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            guard words.count > 2, !line.hasPrefix(" "), words[1] == "connected" else { continue }
            // NAME connected [primary] WxH+X+Y [left|inverted|right] (normal left …) …
            let geometry = words[2] == "primary" ? 3 : 2
            let next = words.count > geometry + 1 ? words[geometry + 1] : ""
            let rotation = ["left", "inverted", "right"].contains(next) ? next : "normal"
            return (words[0], rotation, String(line))
        }
        return nil
    }

    /// The Coordinate Transformation Matrix of an xinput device, as integers.
    private static func matrix(of device: String, on server: XvfbServer) throws -> [Int] {
        let properties = try server.run(["xinput", "list-props", device]).output
        let line = properties.split(separator: "\n").first { $0.contains("Coordinate Transformation Matrix") } ?? ""
        let values = line.split(separator: ":").last?.split(separator: ",") ?? []
        return values.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }.map { Int($0.rounded()) }
    }

    private static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw PeerError("follow did nothing in 30 s") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
