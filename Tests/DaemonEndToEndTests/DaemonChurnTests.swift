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

import Glibc
import OrientdTestKit
import Testing

extension EmulatedDeviceTests {
    /// Reliability, "churn": clients that come and go however they like leave nothing behind.
    ///
    /// 10,000 connect/begin/close cycles (the issue's full count), up to eight connections open at once and all of
    /// them closed every 250 cycles so that the sensor starts and stops again and again: some end before closing,
    /// some begin twice and end once, some close without ending, some close before reading the reply, and some are
    /// real clients (`orientctl watch`) killed with SIGKILL at a random moment. Afterwards the generation total is
    /// 0, the sensor is stopped with the device restored, and the daemon's open files are back to their baseline (taken after one
    /// start and stop of the sensor).
    @Suite struct DaemonChurnTests {
        enum Kind: CaseIterable {
            case endThenClose
            case closeWithoutEnd
            case beginTwiceEndOnce
            case closeBeforeTheReply
            case killed
        }

        @Test(arguments: Reliability.runs)
        func tenThousandCyclesLeaveNoCountNoSensorAndNoOpenFile(run: Int) async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let sandbox = try DaemonSandbox()
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            let resources = ProcessResources(pid: daemon.process.pid)
            let observer = try daemon.connect()
            #expect(try await observer.call("hello").result != nil)
            // The baseline is taken after one start and stop of the sensor: sd-event makes its timerfd for the
            // monotonic clock at the first timer (the poll fallback) and keeps it for the loop's life.
            let warmUp = try daemon.connect()
            _ = try await warmUp.call("begin")
            #expect(await daemon.waitForBufferEnable("1", fixture))
            warmUp.close()
            #expect(await daemon.waitForBufferEnable("0", fixture))
            // A round trip: the warm-up connection's close has been handled to its end, its fd closed.
            _ = try await observer.call("status")
            let baseline = await resources.settledOpenFileCount()

            var rng = SeededGenerator(seed: Reliability.seed(0xC4_0C4, run: run))
            var open: [(DaemonConnection, Kind)] = []
            var counts: [String: Int] = [:]
            var killedClients: [ChildProcess] = []
            for cycle in 0..<10_000 {
                if cycle % 250 == 249 { open.removeAll() }  // everyone goes: the sensor stops
                if !open.isEmpty, open.count >= Int.random(in: 1...8, using: &rng) {
                    let (connection, kind) = open.remove(at: Int.random(in: 0..<open.count, using: &rng))
                    if kind == .endThenClose || kind == .beginTwiceEndOnce {
                        let end = try await connection.call("end")
                        #expect(end.result?["count"]?.integer == (kind == .endThenClose ? 0 : 1), "\(end)")
                    }
                    connection.close()
                }
                let kind: Kind =
                    switch Int.random(in: 0..<100, using: &rng) {
                    case ..<30: .endThenClose
                    case 30..<60: .closeWithoutEnd
                    case 60..<75: .beginTwiceEndOnce
                    case 75..<99: .closeBeforeTheReply
                    default: .killed
                    }
                counts["\(kind)", default: 0] += 1
                switch kind {
                case .killed:
                    let client = try ChildProcess.orientctl(
                        ["--socket", sandbox.socketPath, "watch"],
                        testbed: testbed
                    )
                    try await Task.sleep(for: .milliseconds(Int.random(in: 0...80, using: &rng)))
                    client.signal(SIGKILL)
                    killedClients.append(client)
                case .closeBeforeTheReply:
                    let connection = try daemon.connect()
                    try connection.send(#"{"id": 1, "method": "begin"}"# + "\n")
                    connection.close()
                default:
                    let connection = try daemon.connect()
                    #expect(try await connection.call("begin").result?["count"]?.integer == 1)
                    if kind == .beginTwiceEndOnce {
                        #expect(try await connection.call("begin").result?["count"]?.integer == 2)
                    }
                    open.append((connection, kind))
                }
            }
            open.removeAll()
            for client in killedClients { #expect(await client.wait() == .signalled(SIGKILL)) }

            var status = try await observer.call("status")
            for _ in 0..<400 where status.result?["clients"]?.integer != 1 {
                try await Task.sleep(for: .milliseconds(50))
                status = try await observer.call("status")
            }
            #expect(status.result?["clients"]?.integer == 1, "\(status)")
            #expect(status.result?["generation_total"]?.integer == 0, "\(status)")
            #expect(status.result?["generating_connections"]?.integer == 0, "\(status)")
            #expect(status.result?["state"]?["sensor"]?.string == "stopped", "\(status)")
            #expect(status.result?["state"]?["generating"]?.bool == false, "\(status)")
            #expect(await daemon.waitForBufferEnable("0", fixture))
            let after = await resources.settledOpenFileCount()
            #expect(after == baseline, "open files: \(baseline) before, \(after) after")
            #expect(counts.count == Kind.allCases.count, "\(counts)")
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
