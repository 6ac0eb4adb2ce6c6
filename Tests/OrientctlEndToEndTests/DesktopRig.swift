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
import OrientdTestKit
import Testing

/// What each test of the desktops' app rules starts from: orientd on an emulated accelerometer, and a desktop session
/// (its private buses and folders) whose follow.conf holds ``DesktopAppRules/followConf``.
final class DesktopRig {
    let testbed = Testbed()
    let sandbox: DaemonSandbox
    /// orientd now (another one after ``restartDaemon()``).
    private(set) var daemon: RunningDaemon
    let session: DesktopSession
    /// orientd's socket.
    var socket: String { sandbox.socketPath }

    init() async throws {
        try testbed.add(AccelerometerFixture().description)
        sandbox = try DaemonSandbox()
        daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
        session = try await DesktopSession(testbed: testbed, socket: sandbox.socketPath)
        try DesktopAppRules.followConf.write(
            toFile: session.configDirectory + "/follow.conf",
            atomically: true,
            encoding: .utf8
        )
    }

    /// Starts orientd again on the same socket and state, once the one before has stopped.
    func restartDaemon() async throws {
        daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
    }
}
