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
package import Testing

/// A daemon capturing an emulated accelerometer through its buffer for one generating client: the start-up of most
/// end-to-end tests (the device added, `orientd run` serving, a connection that began, the `sensor` event of the
/// start, `buffer/enable` at 1) made once, and a feed of scans for the device.
///
/// The daemon is stopped when the rig's ``daemon`` goes (``ChildProcess`` ends its process), its sandbox removed
/// with it; a test that wants to see the exit calls `daemon.stop()`.
package struct GeneratingDaemon {
    package let fixture: AccelerometerFixture
    package let testbed: Testbed
    package let daemon: RunningDaemon
    /// The connection that began.
    package let client: DaemonConnection
    /// The reply to the client's `begin`.
    package let begun: DaemonMessage
    /// The `sensor` event the start gave the client (`stopped` → `active`).
    package let started: DaemonMessage
    /// The configuration file the daemon reads (again on SIGHUP), when the rig was given one.
    package let configPath: String?
    /// Scans for the device, their timestamps counting on from one call to the next.
    package var feed: AccelerometerFeed

    /// The daemon's socket and state directory.
    package var sandbox: DaemonSandbox { daemon.sandbox }

    /// Adds `fixture` to `testbed` (a test that needs more devices, such as a tablet switch, adds them to the testbed
    /// it gives), starts the daemon, begins on a new connection, and waits for the `sensor` event and the enabled
    /// buffer.
    /// - Parameters:
    ///   - configuration: the text of a configuration file, written into the sandbox and given with `--config`.
    ///   - arguments: the daemon's arguments besides its socket and state directory (and the configuration's).
    ///   - environment: extra variables for the daemon, such as `DBUS_SYSTEM_BUS_ADDRESS`.
    package init(
        fixture: AccelerometerFixture = AccelerometerFixture(),
        testbed: Testbed? = nil,
        configuration: String? = nil,
        arguments: [String] = RunningDaemon.defaultArguments,
        environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let testbed = testbed ?? Testbed(sourceLocation: sourceLocation)
        try testbed.add(fixture.description)
        let sandbox = try DaemonSandbox()
        var all = arguments
        if let configuration {
            let path = sandbox.directory + "/orientd.conf"
            try configuration.write(toFile: path, atomically: true, encoding: .utf8)
            all += ["--config", path]
            configPath = path
        } else {
            configPath = nil
        }
        let daemon = try await RunningDaemon(
            testbed: testbed,
            sandbox: sandbox,
            arguments: all,
            environment: environment,
            sourceLocation: sourceLocation
        )
        let client = try daemon.connect()
        let begun = try await client.call("begin")
        let started = try await client.nextEvent(timeout: .seconds(10), "the sensor event of the start")
        guard started.event == "sensor", started.state?["sensor"]?.string == "active" else {
            throw DaemonTestError(
                description: "the start gave \(started), not a sensor event\n\(daemon.process.report)"
            )
        }
        guard await daemon.waitForBufferEnable("1", fixture, sourceLocation: sourceLocation) else {
            throw DaemonTestError(description: "the buffer was never enabled\n\(daemon.process.report)")
        }
        self.fixture = fixture
        self.testbed = testbed
        self.daemon = daemon
        self.client = client
        self.begun = begun
        self.started = started
        feed = AccelerometerFeed(fixture: fixture, testbed: testbed)
    }

    /// Holds `posture` and returns the change it makes at the client.
    package mutating func turn(to posture: Posture, seconds: Double = 1) async throws -> [DaemonMessage] {
        try feed.hold(posture, seconds: seconds)
        return try await client.nextChange(timeout: .seconds(10), "the change to \(posture)")
    }
}
