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
import SystemSupport
package import Testing

/// A fresh directory for one daemon's socket and state (`/tmp/orientd-e2e-XXXXXX`, mode 0755 so that other uids
/// can reach the socket), removed with everything in it when the sandbox goes.
package final class DaemonSandbox {
    package let directory: String

    package init() throws {
        var template = Array("/tmp/orientd-e2e-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else {
            throw DaemonTestError(description: "mkdtemp: \(Errno.current)")
        }
        directory = String(cString: made)
        chmod(directory, 0o755)
    }

    deinit {
        // A daemon that is still exiting unlinks its socket while the folder is being emptied; removeItem then
        // stops at that vanished entry and leaves the folder behind, so the removal is made again.
        for _ in 0..<3 where FileManager.default.fileExists(atPath: directory) {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    /// The control socket the daemon makes.
    package var socketPath: String { directory + "/socket" }
    /// The daemon's state directory.
    package var stateDirectory: String { directory + "/state" }
    /// The state file in it.
    package var stateFile: String { stateDirectory + "/state.json" }
}

/// `orientd run` as a child process under a testbed, serving on a sandbox's socket.
package final class RunningDaemon {
    package let process: ChildProcess
    package let sandbox: DaemonSandbox
    package let testbed: Testbed

    /// The arguments every test daemon gets besides its socket and state directory: the buffer rate of the feeds,
    /// and a poll fallback late enough never to replace the fed scans by polled raw values during a test.
    package static let defaultArguments = ["--rate", "50", "--poll-fallback-sec", "10"]

    /// Starts the daemon and waits until it answers `hello` on its socket.
    /// - Parameter environment: extra variables for the daemon, such as `DBUS_SYSTEM_BUS_ADDRESS`.
    package init(
        testbed: Testbed,
        sandbox: DaemonSandbox,
        arguments: [String] = RunningDaemon.defaultArguments,
        environment: [String: String] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        self.testbed = testbed
        self.sandbox = sandbox
        process = try ChildProcess.orientd(
            ["run", "--socket", sandbox.socketPath, "--state-dir", sandbox.stateDirectory] + arguments,
            testbed: testbed,
            environment: environment
        )
        var probe: DaemonConnection?
        let serving = await process.waitUntil("it accepts connections", timeout: .seconds(20)) {
            probe = try? DaemonConnection(path: sandbox.socketPath)
            return probe != nil
        }
        guard serving, let probe else { throw DaemonTestError(description: "orientd did not start\n\(process.report)") }
        probe.context = { [process = self.process] in process.report }
        let hello = try await probe.call("hello")
        guard hello.result?["protocol"]?.integer == 1 else {
            throw DaemonTestError(description: "unexpected hello reply \(hello)\n\(process.report)")
        }
        probe.close()
    }

    /// A new connection to the daemon.
    package func connect() throws -> DaemonConnection {
        let connection = try DaemonConnection(path: sandbox.socketPath)
        connection.context = { [process = self.process] in process.report }
        return connection
    }

    /// SIGTERM, then waits for the exit.
    @discardableResult
    package func stop(sourceLocation: SourceLocation = #_sourceLocation) async -> ExitStatus {
        process.terminate()
        return await process.wait(timeout: .seconds(20), sourceLocation: sourceLocation)
    }

    /// Waits until the daemon's log (its standard error) holds each of `lines`, and returns the log. The log reaches
    /// the test through a pipe read on its own, so it can lag behind what the daemon did after writing it (enabling
    /// a buffer again, answering `status`, sending an event): a test that reads it at once races that reader.
    package func log(
        showing lines: String...,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> String {
        _ = await process.waitUntil(
            "the log shows \(lines.joined(separator: " | "))",
            timeout: .seconds(10),
            sourceLocation: sourceLocation
        ) { lines.allSatisfy { process.errorText.contains($0) } }
        return process.errorText
    }

    /// `buffer/enable` of the emulated accelerometer: "1" while the daemon captures through the buffer.
    package func bufferEnable(_ fixture: AccelerometerFixture) -> String? {
        try? testbed.attribute(fixture.syspath, "buffer/enable")
    }

    /// Waits until `buffer/enable` reads `value`; records a failure (with the daemon's output) if it does not.
    @discardableResult
    package func waitForBufferEnable(
        _ value: String,
        _ fixture: AccelerometerFixture,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async -> Bool {
        await process.waitUntil("buffer/enable is \(value)", timeout: .seconds(10), sourceLocation: sourceLocation) {
            bufferEnable(fixture) == value
        }
    }

    /// Waits until the daemon has read `count` samples since it started (`status` → `sensor.samples_read`), so
    /// that no fed scan is left in the emulated device when the sensor stops.
    package func waitUntilRead(_ count: Int, via connection: DaemonConnection) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        var read = -1
        while ContinuousClock.now < deadline {
            read = try await connection.call("status").result?["sensor"]?["samples_read"]?.integer ?? -1
            if read >= count { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw DaemonTestError(description: "the daemon read \(read) of \(count) samples\n\(process.report)")
    }
}

/// The orders and tables of PROTOCOL.md and ORIENTATION.md that the tests check against.
package enum DaemonContract {
    /// PROTOCOL.md: "One change may produce several events, in the order sensor, allowed, tablet-mode, device,
    /// interface, suggestion".
    package static let eventOrder = ["sensor", "allowed", "tablet-mode", "device", "interface", "suggestion"]
    /// The normalised order of `allowed` and `lock`.
    package static let interfaceOrder = ["portrait", "portrait-upside-down", "landscape-left", "landscape-right"]

    /// ORIENTATION.md "Display transforms": wl_output transform, sway, xrandr, xinput matrix by rotation.
    package static func transform(rotation: Int) -> (wayland: Int, sway: String, xrandr: String, matrix: [Double])? {
        switch rotation {
        case 0: (0, "normal", "normal", [1, 0, 0, 0, 1, 0, 0, 0, 1])
        case 90: (1, "270", "left", [0, -1, 1, 1, 0, 0, 0, 0, 1])
        case 180: (2, "180", "inverted", [-1, 0, 1, 0, -1, 1, 0, 0, 1])
        case 270: (3, "90", "right", [0, 1, 0, -1, 0, 1, 0, 0, 1])
        default: nil
        }
    }

    /// Checks a state's `rotation` and `transform` against the table for the rotation of its interface orientation
    /// on a laptop (landscape-native).
    package static func expectTransform(_ state: DaemonJSON?, sourceLocation: SourceLocation = #_sourceLocation) {
        let rotations = ["landscape-right": 0, "portrait": 90, "landscape-left": 180, "portrait-upside-down": 270]
        guard let state, let interface = state["interface"]?.string else {
            Issue.record("no state or interface in \(String(describing: state))", sourceLocation: sourceLocation)
            return
        }
        guard let rotation = rotations[interface], let expected = transform(rotation: rotation) else {
            #expect(state["rotation"]?.isNull == true, "\(state)", sourceLocation: sourceLocation)
            #expect(state["transform"]?.isNull == true, "\(state)", sourceLocation: sourceLocation)
            return
        }
        let transform = state["transform"]
        #expect(state["rotation"]?.integer == rotation, "\(state)", sourceLocation: sourceLocation)
        #expect(transform?["wayland"]?.integer == expected.wayland, "\(state)", sourceLocation: sourceLocation)
        #expect(transform?["sway"]?.string == expected.sway, "\(state)", sourceLocation: sourceLocation)
        #expect(transform?["xrandr"]?.string == expected.xrandr, "\(state)", sourceLocation: sourceLocation)
        #expect(
            transform?["matrix"]?.array?.compactMap(\.double) == expected.matrix,
            "\(state)",
            sourceLocation: sourceLocation
        )
    }

    /// Checks a stream of events: seq never goes back; the events of one seq come in the order sensor, allowed,
    /// device, interface, each at most once, all with the same state.
    package static func expectWellOrdered(_ events: [DaemonMessage], sourceLocation: SourceLocation = #_sourceLocation)
    {
        var previous: DaemonMessage?
        for event in events {
            guard let seq = event.seq, let name = event.event, let rank = eventOrder.firstIndex(of: name) else {
                Issue.record("not a well-formed event: \(event)", sourceLocation: sourceLocation)
                continue
            }
            defer { previous = event }
            guard let previous, let previousSeq = previous.seq else { continue }
            #expect(seq >= previousSeq, "seq went back: \(previous) then \(event)", sourceLocation: sourceLocation)
            if seq == previousSeq {
                let previousRank = eventOrder.firstIndex(of: previous.event ?? "") ?? -1
                #expect(
                    rank > previousRank,
                    "order within seq \(seq): \(previous.event ?? "?") then \(name)",
                    sourceLocation: sourceLocation
                )
                #expect(
                    event.state == previous.state,
                    "one change, two states: \(previous) / \(event)",
                    sourceLocation: sourceLocation
                )
            }
        }
    }
}

/// A pose of the emulated device, as ORIENTATION.md's axis table gives it (after the mount matrix).
package enum Posture: String, CaseIterable, CustomStringConvertible {
    case normal
    case leftUp
    case bottomUp
    case rightUp
    case faceUp
    case faceDown

    /// The corrected reading in counts, 1 g = 1000 (the fixture's scale makes that 9.80665 m/s²).
    package var reading: AxisValues<Int64> {
        switch self {
        case .normal: AxisValues(x: 0, y: -1000, z: 0)
        case .leftUp: AxisValues(x: 1000, y: 0, z: 0)
        case .bottomUp: AxisValues(x: 0, y: 1000, z: 0)
        case .rightUp: AxisValues(x: -1000, y: 0, z: 0)
        case .faceUp: AxisValues(x: 0, y: 0, z: 1000)
        case .faceDown: AxisValues(x: 0, y: 0, z: -1000)
        }
    }

    package var description: String { rawValue }
}

/// Writes scans to the emulated accelerometer's PTY: 50 Hz timestamps that keep counting across calls (the
/// classifier runs on the timestamps, so a second of samples can be written at once).
package struct AccelerometerFeed {
    package let fixture: AccelerometerFixture
    package let testbed: Testbed
    /// Turns a corrected reading into the raw one the device must report (the inverse of its mount matrix).
    package var rawReading: (AxisValues<Int64>) -> AxisValues<Int64> = { $0 }
    /// The next scan's timestamp, in nanoseconds.
    package private(set) var time: Int64 = 1_000_000_000
    /// Scans written so far.
    package private(set) var written = 0

    package init(fixture: AccelerometerFixture, testbed: Testbed) {
        self.fixture = fixture
        self.testbed = testbed
    }

    /// Moves the timestamps of the next scans `seconds` on, as after a suspend (the IIO timestamp clock runs on).
    package mutating func skip(seconds: Double) {
        time += Int64(seconds * 1_000_000_000)
    }

    /// Holds `posture` still for `seconds` (50 scans a second).
    package mutating func hold(_ posture: Posture, seconds: Double = 1) throws {
        try hold(raw: rawReading(posture.reading), seconds: seconds)
    }

    /// Holds a corrected reading (counts, 1 g = 1000) still for `seconds`, for poses between the named ones.
    package mutating func hold(reading: AxisValues<Int64>, seconds: Double = 1) throws {
        try hold(raw: rawReading(reading), seconds: seconds)
    }

    /// Writes the same raw reading for `seconds` (50 scans a second), as the device reports it.
    package mutating func hold(raw: AxisValues<Int64>, seconds: Double = 1) throws {
        let count = Int(seconds * 50)
        let times = (0..<count).map { time + Int64($0) * 20_000_000 }
        time += Int64(count) * 20_000_000
        written += count
        try testbed.write(
            fixture.encodeScans(Array(repeating: raw, count: count), timestamps: times),
            to: fixture.deviceNode
        )
    }
}
