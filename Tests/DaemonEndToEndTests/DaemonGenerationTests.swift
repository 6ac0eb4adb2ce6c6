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

import OrientdTestKit
import Testing

extension EmulatedDeviceTests {
    /// PROTOCOL.md "Generation counting": begin/end per connection, the sensor running only while the total is
    /// above zero, events only to generating connections.
    @Suite struct DaemonGenerationTests {
        @Test func beginAndEndNestPerConnectionAndDriveTheBuffer() async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox())
            let first = try daemon.connect()
            let second = try daemon.connect()
            #expect(daemon.bufferEnable(fixture) == "0")

            let begun = try await first.call("begin")
            #expect(begun.result?["count"]?.integer == 1, "\(begun)")
            #expect(begun.state?["generating"]?.bool == true, "\(begun)")
            await daemon.waitForBufferEnable("1", fixture)
            #expect(try await first.call("begin").result?["count"]?.integer == 2)
            // The count in a reply is the connection's own.
            #expect(try await second.call("begin").result?["count"]?.integer == 1)
            #expect(try await first.call("end").result?["count"]?.integer == 1)
            #expect(try await first.call("end").result?["count"]?.integer == 0)
            let extra = try await first.call("end")
            #expect(extra.errorCode == "not-generating", "\(extra)")

            // The second connection still generates: the sensor runs on.
            let state = try await first.call("get")
            #expect(state.state?["generating"]?.bool == true, "\(state)")
            #expect(state.state?["sensor"]?.string == "active", "\(state)")
            #expect(daemon.bufferEnable(fixture) == "1")

            #expect(try await second.call("end").result?["count"]?.integer == 0)
            await daemon.waitForBufferEnable("0", fixture)
            let stopped = try await first.call("get")
            #expect(stopped.state?["generating"]?.bool == false, "\(stopped)")
            #expect(stopped.state?["sensor"]?.string == "stopped", "\(stopped)")
            #expect(stopped.state?["device"]?.string == "unknown", "\(stopped)")
            let status = try await first.call("status")
            #expect(status.result?["generation_total"]?.integer == 0, "\(status)")
            #expect(status.result?["generating_connections"]?.integer == 0, "\(status)")
            #expect(await daemon.stop() == .exited(0))
        }

        @Test func closingTheLastGeneratingConnectionStopsTheSensor() async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox())
            let watcher = try daemon.connect()
            let generator = try daemon.connect()
            _ = try await generator.call("begin")
            #expect(try await generator.call("begin").result?["count"]?.integer == 2)
            await daemon.waitForBufferEnable("1", fixture)

            generator.close()
            await daemon.waitForBufferEnable("0", fixture)
            let state = try await watcher.call("get")
            #expect(state.state?["generating"]?.bool == false, "\(state)")
            #expect(state.state?["sensor"]?.string == "stopped", "\(state)")
            let status = try await watcher.call("status")
            #expect(status.result?["generation_total"]?.integer == 0, "\(status)")
            #expect(status.result?["clients"]?.integer == 1, "\(status)")

            // Its count went with it: a new begin starts the sensor again from 1.
            let again = try await watcher.call("begin")
            #expect(again.result?["count"]?.integer == 1, "\(again)")
            await daemon.waitForBufferEnable("1", fixture)
            #expect(await daemon.stop() == .exited(0))
            #expect(daemon.bufferEnable(fixture) == "0")
        }

        /// The begin reply, then `sensor` (stopped → active), then the first classification; a connection that
        /// never began sees none of it, and `get` says `unknown` once nobody generates.
        @Test func eventsFollowTheReplyAndGoOnlyToGeneratingConnections() async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox())
            let generator = try daemon.connect()
            let bystander = try daemon.connect()

            let notBegun = try await bystander.call("end")
            #expect(notBegun.errorCode == "not-generating", "\(notBegun)")
            let idle = try await bystander.call("get")
            #expect(idle.state?["device"]?.string == "unknown", "\(idle)")
            #expect(idle.state?["interface"]?.string == "unknown", "\(idle)")
            #expect(idle.state?["rotation"]?.isNull == true, "\(idle)")
            #expect(idle.state?["transform"]?.isNull == true, "\(idle)")
            #expect(idle.state?["sensor"]?.string == "stopped", "\(idle)")
            #expect(idle.state?["generating"]?.bool == false, "\(idle)")

            try generator.send("{\"id\": \"b\", \"method\": \"begin\"}\n")
            let reply = try await generator.next()
            #expect(reply.isReply && reply.id == .string("b"), "the reply comes first: \(reply)")
            #expect(reply.result?["count"]?.integer == 1)
            let sensor = try await generator.nextEvent()
            #expect(sensor.event == "sensor", "\(sensor)")
            #expect(sensor.previous == "stopped", "\(sensor)")
            #expect(sensor.state?["sensor"]?.string == "active", "\(sensor)")
            #expect(sensor.state?["device"]?.string == "unknown", "\(sensor)")
            #expect(sensor.seq == reply.seq, "the reply and the events of one change share seq: \(reply) / \(sensor)")
            await daemon.waitForBufferEnable("1", fixture)

            var feed = AccelerometerFeed(fixture: fixture, testbed: testbed)
            try feed.hold(.normal)
            let change = try await generator.nextChange()
            #expect(change.map(\.event) == ["device", "interface"], "\(change)")
            #expect(change.first?.previous == "unknown")
            #expect(change.first?.state?["device"]?.string == "landscape-left", "\(change)")
            #expect(change.last?.state?["interface"]?.string == "landscape-right", "\(change)")
            #expect((change.first?.seq ?? 0) > (sensor.seq ?? .max), "\(change)")
            DaemonContract.expectWellOrdered([sensor] + change)

            // The bystander reads the device orientation while someone generates, but no event reached it.
            let meanwhile = try await bystander.call("get")
            #expect(meanwhile.state?["device"]?.string == "landscape-left", "\(meanwhile)")
            #expect(bystander.log.count == 3 && bystander.inbox.isEmpty, "\(bystander.log)")

            try await daemon.waitUntilRead(feed.written, via: bystander)
            #expect(try await generator.call("end").result?["count"]?.integer == 0)
            await daemon.waitForBufferEnable("0", fixture)
            let after = try await bystander.call("get")
            #expect(after.state?["device"]?.string == "unknown", "nobody generates: \(after)")
            #expect(after.state?["interface"]?.string == "landscape-right", "the interface keeps its value: \(after)")
            #expect(after.state?["sensor"]?.string == "stopped", "\(after)")
            #expect(bystander.log.allSatisfy { $0.isReply }, "\(bystander.log)")
            #expect(generator.inbox.isEmpty, "nothing after the end reply: \(generator.inbox)")
            #expect(await daemon.stop() == .exited(0))
        }

        /// PROTOCOL.md: "A client may close its sending side and keep reading events."
        @Test func aGeneratingClientThatClosesItsSendingSideKeepsReceivingEvents() async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox())
            let listener = try daemon.connect()
            try listener.send(#"{"id": 1, "method": "begin"}"# + "\n")
            listener.closeSendingSide()
            let reply = try await listener.next()
            #expect(reply.result?["count"]?.integer == 1, "\(reply)")
            #expect(try await listener.nextEvent().event == "sensor")
            await daemon.waitForBufferEnable("1", fixture)
            var feed = AccelerometerFeed(fixture: fixture, testbed: testbed)
            try feed.hold(.normal)
            try feed.hold(.leftUp)
            let events = try await listener.events(until: "portrait") { $0.state?["device"]?.string == "portrait" }
            #expect(events.compactMap(\.event) == ["device", "interface", "device"], "\(events)")
            #expect(!listener.closedByDaemon)
            // It still counts as generating: closing it completely stops the sensor.
            listener.close()
            await daemon.waitForBufferEnable("0", fixture)
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
