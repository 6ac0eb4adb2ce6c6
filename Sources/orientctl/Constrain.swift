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

/// `orientctl constrain MASK`.
struct Constrain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Allow only some interface orientations until interrupted.",
        discussion: """
            Holds the constraint while it runs: prints the state line after constraining, then starts \
            the sensor (begin) and prints one line 'device=D interface=I rotation=R' per event, as \
            watch does. SIGINT or SIGTERM end it with status 0, and the constraint goes with its \
            connection; if orientd goes away, it ends with status 3.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The orientations allowed: a mask name (landscape) or a list (portrait,landscape-left).")
    var mask: String

    func validate() throws {
        _ = try Self.parse(mask)
    }

    func run() async throws {
        let signals = TerminationSignals.catching()
        let connection = try global.connect()
        defer { connection.close() }
        let constrained = try await connection.request(
            .constrain,
            .constrain(try Self.parse(mask)),
            returning: OrientationState.self
        )
        let follower = EventFollower(printer: Printer(json: global.json), command: nil)
        follower.start(with: constrained.value, json: constrained.json(at: "result"))
        // Begun after printing, so that every event printed comes after the state printed.
        _ = try await connection.request(.begin, returning: BeginResult.self)
        try await follower.follow(connection, after: constrained.value.seq, until: signals)
    }

    private static func parse(_ text: String) throws(ValidationError) -> InterfaceOrientationMask {
        do {
            return try InterfaceOrientationMask(parsing: text)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
