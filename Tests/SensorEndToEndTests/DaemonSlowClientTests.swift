import Testing

extension EmulatedDeviceTests {
    /// PROTOCOL.md "Limits and slow clients": a connection whose unsent output passes `OutputLimitKiB=` (256 KiB)
    /// is closed; nobody else waits for it or misses anything.
    @Suite struct DaemonSlowClientTests {
        @Test func aClientThatNeverReadsIsDroppedAndTheOthersGetEveryEvent() async throws {
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox())
            let sluggard = try daemon.connect()
            _ = try await sluggard.call("begin")
            let reader = try daemon.connect()
            _ = try await reader.call("begin")
            let controller = try daemon.connect()
            #expect(try await controller.call("status").result?["clients"]?.integer == 3)

            // Each constraint toggle is one change with two events (allowed, interface) of about 400 bytes to
            // each generating connection; the sluggard never reads again.
            let masks = [#"{"mask": "portrait"}"#, #"{"mask": "landscape"}"#]
            var replySeqs: [Int] = []
            var dropped = false
            var toggles = 0
            // A guard, not an expectation: the sluggard is owed what the reader got; stop at 2 MiB (8 × the bound).
            var owed = 0
            while !dropped && owed < 2 << 20 {
                let reply = try await controller.call("constrain", masks[toggles % 2])
                replySeqs.append(try #require(reply.seq, "\(reply)"))
                toggles += 1
                reader.readAvailable()
                if toggles % 25 == 0 {
                    owed = reader.log.reduce(0) { $0 + $1.text.utf8.count + 1 }
                    let status = try await controller.call("status")
                    dropped = status.result?["clients"]?.integer == 2
                }
            }
            #expect(dropped, "still connected after \(toggles) changes")
            // More changes after the drop, then a barrier: every event before the reply to `get` has arrived.
            for index in 0..<20 {
                let reply = try await controller.call("constrain", masks[(toggles + index) % 2])
                replySeqs.append(try #require(reply.seq, "\(reply)"))
            }
            _ = try await reader.call("get", timeout: .seconds(30))
            let status = try await controller.call("status")
            #expect(status.result?["generating_connections"]?.integer == 1, "\(status)")
            #expect(status.result?["generation_total"]?.integer == 1, "\(status)")

            let first = try #require(replySeqs.first)
            let events = reader.log.filter { $0.isEvent && ($0.seq ?? 0) >= first }
            DaemonContract.expectWellOrdered(events)
            // Every change, both of its events, in order, each once.
            let expected = replySeqs.flatMap { [($0, "allowed"), ($0, "interface")] }
            let received = events.map { ($0.seq ?? -1, $0.event ?? "?") }
            let common = min(received.count, expected.count)
            let differing = (0..<common).first { received[$0] != expected[$0] }
            if let index = differing ?? (received.count == expected.count ? nil : common) {
                let window = max(0, index - 3)..<min(events.count, index + 4)
                Issue.record(
                    """
                    the reader's events differ from the changes at event \(index) of \(received.count) \
                    (\(expected.count) expected, seq \(expected[min(index, expected.count - 1)].0)); received around it:
                    \(events[window].map { "\($0.seq ?? -1) \($0.event ?? "?")" }.joined(separator: "\n"))
                    """
                )
            }
            #expect(reader.log.allSatisfy { $0.errorCode == nil }, "\(reader.log.filter { $0.errorCode != nil })")

            // The sluggard gets what was queued before the drop, in order, then EOF.
            #expect(await sluggard.waitUntilClosed(timeout: .seconds(30)), "the sluggard is still connected")
            let queued = sluggard.log.filter { $0.isEvent && ($0.seq ?? 0) >= first }.map(\.text)
            #expect(!queued.isEmpty)
            #expect(queued.count < events.count, "the sluggard cannot have everything")
            #expect(Array(events.map(\.text).prefix(queued.count)) == queued, "the sluggard's events are a prefix")
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
