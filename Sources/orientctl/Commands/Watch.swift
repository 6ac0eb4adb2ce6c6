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

/// `orientctl watch [--exec CMD]`.
struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the state, then one line per event, until interrupted.",
        discussion: """
            Starts the sensor (begin) and prints the state line 'device=D interface=I rotation=R lock=L', \
            then one line 'device=D interface=I rotation=R' per change: the events of one change (one \
            seq, e.g. a device and an interface event) make one line. With --json: the state object, \
            then every event object, as the daemon sends them. SIGINT or SIGTERM end it with status 0. \
            If orientd goes away, it ends with status 3 and does not reconnect (run it from a service \
            that restarts it).

            --exec CMD runs 'sh -c CMD' once for the current state when it starts (as soon as the \
            interface orientation is known) and then on each interface change, one run at a time, \
            with these variables set: ORIENTD_DEVICE, ORIENTD_INTERFACE (orientation names), \
            ORIENTD_ROTATION (0, 90, 180, 270), ORIENTD_WAYLAND_TRANSFORM (0-3), \
            ORIENTD_SWAY_TRANSFORM (normal, 90, 180, 270), ORIENTD_XRANDR (normal, left, inverted, \
            right), ORIENTD_MATRIX (the xinput Coordinate Transformation Matrix: nine numbers \
            separated by spaces). Example: orientctl watch --exec 'swaymsg output eDP-1 transform \
            $ORIENTD_SWAY_TRANSFORM'
            """
    )

    @OptionGroup var global: GlobalOptions

    @Option(
        name: .customLong("exec"),
        help: ArgumentHelp(
            "Run 'sh -c CMD' for the current state and on each interface change (see below).",
            valueName: "CMD"
        )
    )
    var command: String?

    func run() async throws {
        let signals = TerminationSignals.catching()
        let connection = try global.connect()
        defer { connection.close() }
        let begun = try await connection.request(.begin, returning: BeginResult.self)
        let follower = EventFollower(printer: Printer(json: global.json), command: command)
        follower.start(with: begun.value.state, json: begun.json(at: "result", "state"))
        try await follower.follow(connection, after: begun.value.state.seq, until: signals)
    }
}
