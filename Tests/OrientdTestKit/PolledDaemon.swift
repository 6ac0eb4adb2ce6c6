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

import Testing

/// A daemon polling an emulated accelerometer (its buffer not offered), with a client that has begun and read the
/// sensor's start and the first classification: the set-up of the tests that change the raw attributes under a
/// polling daemon.
package struct PolledDaemon {
    package let fixture: AccelerometerFixture
    package let testbed: Testbed
    package let daemon: RunningDaemon
    package let client: DaemonConnection
    /// The events of the first classification.
    package let firstChange: [DaemonMessage]

    package init() async throws {
        var fixture = AccelerometerFixture()
        fixture.capture = .pollOnly
        let testbed = Testbed()
        try testbed.add(fixture.description)
        let daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox())
        let client = try daemon.connect()
        _ = try await client.call("begin")
        _ = try await client.nextEvent()
        firstChange = try await client.nextChange()
        self.fixture = fixture
        self.testbed = testbed
        self.daemon = daemon
        self.client = client
    }

    /// The path of one of the device's raw attributes in the emulated sysfs.
    package func attributePath(_ name: String) -> String {
        testbed.rootDirectory + fixture.syspath + "/" + name
    }
}
