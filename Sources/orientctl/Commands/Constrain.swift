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

/// `orientctl constrain MASK`, and `orientctl constrain MASK -- COMMAND [ARGS…]`.
struct Constrain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Allow only some interface orientations until interrupted, or while a command runs.",
        discussion: """
            Holds the constraint while it runs: prints the state line after constraining, then starts \
            the sensor (begin) and prints one line 'device=D interface=I rotation=R' per event, as \
            watch does. SIGINT or SIGTERM end it with status 0, and the constraint goes with its \
            connection; if orientd goes away, it ends with status 3.

            With a command after '--' (orientctl constrain landscape -- mpv film.mkv): holds the constraint \
            exactly while the command runs and prints nothing of its own on standard output. SIGINT and \
            SIGTERM are passed on to the command; orientctl ends when it does, with its exit status (128 + N \
            when signal N ended it; 127 when it cannot be found, 126 when it cannot be run). A constraint that \
            orientd refuses (status 1, 3 or 4) starts no command.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The orientations allowed: a mask name (landscape) or a list (portrait,landscape-left).")
    var mask: String

    @Argument(
        parsing: .postTerminator,
        help: ArgumentHelp("The command to run while the constraint holds, after '--'.", valueName: "command")
    )
    var command: [String] = []

    /// What `status` shows the constraint is for: the command, shortened to what the protocol takes.
    private var holder: String? {
        guard !command.isEmpty else { return nil }
        let text = command.map(ExternalCommand.quoted).joined(separator: " ")
        return text.count <= Request.holderLimit ? text : String(text.prefix(Request.holderLimit - 1)) + "…"
    }

    func validate() throws {
        _ = try Self.parse(mask)
    }

    func run() async throws {
        let signals = TerminationSignals.catching()
        let connection = try global.connect()
        defer { connection.close() }
        let constrained = try await connection.request(
            .constrain,
            .constrain(try Self.parse(mask), holder: holder),
            returning: OrientationState.self
        )
        guard command.isEmpty else {
            // The sensor runs while the command does, so that the interface turns within the mask.
            _ = try await connection.request(.begin, returning: BeginResult.self)
            let status = await ForegroundCommand(arguments: command).run(forwarding: signals)
            throw ExitCode(status)
        }
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
