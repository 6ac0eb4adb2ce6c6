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

/// `orientctl rotate [ORIENTATION]`.
struct Rotate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Accept the rotation suggestion (lock the orientation the device is held in), and print the new state line.",
        discussion: """
            While rotation is locked and the device is turned to an orientation that only the lock keeps \
            the screen from, orientd suggests that orientation for a while ([Policy] SuggestionSec=, 'suggestion=' \
            in 'orientctl get'). 'orientctl rotate' accepts it: it locks the suggested orientation, so the \
            screen turns once and stays locked there. Without a suggestion it fails with 'no-suggestion' \
            (exit status 1) and changes nothing. Bind it to a key or a bar button; 'orientctl suggest' offers \
            it as a desktop notification.

            With an orientation (portrait, portrait-upside-down, landscape-left, landscape-right), it locks \
            that one whatever the suggestion: a forced rotation.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("The orientation to lock; default: the suggested one.", valueName: "orientation"))
    var orientation: String?

    func validate() throws {
        if let orientation { _ = try Self.parse(orientation) }
    }

    func run() async throws {
        let connection = try global.connect()
        defer { connection.close() }
        let target: InterfaceOrientation
        if let orientation {
            target = try Self.parse(orientation)
        } else {
            let state = try await connection.request(.get, returning: OrientationState.self).value
            guard let suggestion = state.suggestion else { throw Self.noSuggestion(state) }
            target = suggestion
        }
        let reply = try await connection.request(.lock, .lock(.orientation(target)), returning: OrientationState.self)
        Printer(json: global.json).state(reply.value, json: reply.json(at: "result"))
    }

    /// `no-suggestion`, with why there is none.
    static func noSuggestion(_ state: OrientationState) -> CommandFailure {
        let why =
            if state.lock == nil {
                "rotation is not locked, the screen follows the device"
            } else if !state.generating {
                "nobody is reading the sensor ('orientctl suggest' or 'orientctl follow' keep it read)"
            } else {
                "the device is held in an orientation the lock allows, or the suggestion timed out"
            }
        return CommandFailure(
            status: CommandFailure.daemonErrorStatus,
            message: "no-suggestion: there is no rotation suggestion to accept: \(why)"
        )
    }

    private static func parse(_ text: String) throws(ValidationError) -> InterfaceOrientation {
        guard let orientation = InterfaceOrientation(wireName: text), orientation != .unknown else {
            throw ValidationError(
                "'\(text)' is not an orientation: portrait, portrait-upside-down, landscape-left or landscape-right"
            )
        }
        return orientation
    }
}
