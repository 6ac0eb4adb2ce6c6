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

import OrientClient
import OrientProtocol

/// Prints the events of a connection (and runs the `--exec` command) until a signal or the daemon's end.
struct EventFollower: Sendable {
    var printer: Printer
    var command: String?

    /// Prints the state at the start and runs the command for it.
    func start(with state: OrientationState, json: ArraySlice<UInt8>?) {
        printer.state(state, json: json)
        if let command { ExecCommand.run(command, for: state) }
    }

    /// Prints each change (the events of one `seq` as one line; in JSON, every event as sent); runs the command
    /// on each interface change.
    /// - Parameter seq: the `seq` of the state printed at the start: events of that change are in it already.
    /// - Throws: status 3 when the daemon goes away; returns when a signal arrives.
    func follow(_ connection: OrientConnection, after seq: UInt64, until signals: AsyncStream<Int32>) async throws {
        let events = connection.events
        try await TerminationSignals.runUntilSignalled(signals) {
            // Every event of a change carries the state after the whole change, so its first event says it all.
            var printed = seq
            for await event in events {
                if printer.json || event.value.state.seq != printed {
                    printer.event(event)
                    printed = event.value.state.seq
                }
                if let command, event.value.name == .interface { ExecCommand.run(command, for: event.value.state) }
            }
            // A signal cancels this loop too; only an end of its own means the daemon went away.
            if !Task.isCancelled { throw connection.lostFailure }
        }
    }
}
