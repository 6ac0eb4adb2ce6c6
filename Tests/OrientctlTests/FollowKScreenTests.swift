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
import OrientdTestSupport
import Testing

/// `orientctl follow --backend kde` with the real kscreen-doctor (libkscreen's XRandR backend, in process)
/// on a headless X server.
@Suite(
    "orientctl follow with the real kscreen-doctor",
    .timeLimit(.minutes(2)),
    .enabled(
        if: XvfbServer.canStart && FileManager.default.isExecutableFile(atPath: "/usr/bin/kscreen-doctor"),
        "kscreen-doctor or Xvfb is missing: install libkf5screen-bin and xvfb (scripts/install-deps)"
    )
)
struct FollowKScreenTests {
    @Test("the output comes from kscreen-doctor's JSON; a refusal is reported with kscreen-doctor's words")
    func realKScreenDoctor() async throws {
        let server = try #require(XvfbServer())
        defer { server.stop() }
        try await withTemporaryDirectory { directory in
            let environment = FollowTests.environment(
                in: directory,
                [
                    "DISPLAY": server.display, "XDG_RUNTIME_DIR": directory, "KSCREEN_BACKEND": "XRandR",
                    "KSCREEN_BACKEND_INPROCESS": "1",
                ]
            )
            // Found by itself: Xvfb's only output, named `screen`.
            let peer = try ScriptedPeer(path: directory + "/socket")
            let process = try OrientctlProcess(
                ["follow", "--backend", "kde", "--dry-run", "--socket", peer.path],
                in: directory,
                environment: environment
            )
            let connection = try await FollowDesktopTests.begin(on: peer, with: Fixture.state())
            #expect(
                try await process.waitForOutputLines(2) == [
                    Fixture.state().orientationLine, "kscreen-doctor output.screen.rotation.none",
                ],
                "\(process.errorOutput)"
            )
            process.signal(SIGTERM)
            #expect(try await process.wait() == 0)
            withExtendedLifetime(connection) {}

            // An output it does not have: its status and its words.
            let refusedPeer = try ScriptedPeer(path: directory + "/refused")
            let refused = try OrientctlProcess(
                ["follow", "--backend", "kde", "--output", "LVDS-9", "--socket", refusedPeer.path],
                in: directory,
                environment: environment
            )
            let refusedConnection = try await FollowDesktopTests.begin(on: refusedPeer, with: Fixture.state())
            try await FollowTests().waitUntil { refused.errorOutput.contains("trying again") }
            refused.signal(SIGTERM)
            #expect(try await refused.wait() == 0)
            withExtendedLifetime(refusedConnection) {}
            #expect(
                refused.errorOutput.hasPrefix(
                    "orientctl: cannot apply interface=landscape-right rotation=0: 'kscreen-doctor "
                        + "output.LVDS-9.rotation.none' exited with status 3: "
                ),
                "\(refused.errorOutput)"
            )
            #expect(refused.errorOutput.contains("Output with name LVDS-9 not found"))
        }
    }
}
