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

import ArgumentParser
import OrientClient
import OrientProtocol
import OrientationCore

/// `orientctl get [--no-wait]`.
struct Get: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the orientation state line.",
        discussion: """
            Starts the sensor (begin), waits for its first classification (at most 2 s), stops it \
            (end) and prints 'device=D interface=I rotation=R lock=L'. With --no-wait, prints the \
            state as it is without starting the sensor: the device is 'unknown' when nobody generates.
            """
    )

    /// How long to wait for the first classification.
    static let classificationTimeout = Duration.seconds(2)

    @OptionGroup var global: GlobalOptions

    @Flag(name: .customLong("no-wait"), help: "Print the state as it is, without starting the sensor.")
    var noWait = false

    func run() async throws {
        let connection = try global.connect()
        defer { connection.close() }
        let printer = Printer(json: global.json)
        if noWait {
            let reply = try await connection.request(.get, returning: OrientationState.self)
            printer.state(reply.value, json: reply.json(at: "result"))
            return
        }
        let begun = try await connection.request(.begin, returning: BeginResult.self)
        var state = begun.value.state
        var json = begun.json(at: "result", "state")
        if Self.awaitsClassification(state),
            let event = await Self.firstClassification(in: connection.events)
        {
            state = event.value.state
            json = event.json(at: "state")
        }
        _ = try await connection.request(.end, returning: EndResult.self)
        printer.state(state, json: json)
    }

    /// Whether a classification can still come: the device is unknown and the sensor has not failed or gone.
    private static func awaitsClassification(_ state: OrientationState) -> Bool {
        state.device == .unknown && state.sensor != .absent && state.sensor != .failed
    }

    /// The first event that classifies the device (or says it will not be), or nil after the timeout
    /// or when the connection ends.
    private static func firstClassification(
        in events: AsyncStream<Received<OrientationEvent>>
    ) async -> Received<OrientationEvent>? {
        await withTaskGroup(of: Received<OrientationEvent>?.self) { group in
            group.addTask {
                for await event in events where event.value.name == .device || !awaitsClassification(event.value.state)
                {
                    return event
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: classificationTimeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
