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

/// `orientctl lock [ORIENTATION|MASK]`, `orientctl lock --toggle`.
struct Lock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lock the interface orientation, and print the new state line.",
        discussion: """
            Without an argument, locks the current interface orientation. An orientation \
            (portrait) allows only it; a mask (landscape, or a list such as portrait,landscape-left) \
            allows those, so 'lock landscape' still flips 180 degrees. The lock survives restarts. \
            --toggle locks the current orientation, or unlocks if locked (for a hotkey).
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(
        help: ArgumentHelp("An orientation or a mask; default: the current orientation.", valueName: "orientation|mask")
    )
    var target: String?

    @Flag(help: "Lock the current orientation, or unlock if locked.")
    var toggle = false

    func validate() throws {
        if toggle, target != nil { throw ValidationError("--toggle locks the current orientation: give no argument") }
        if let target { _ = try Self.parse(target) }
    }

    func run() async throws {
        let connection = try global.connect()
        defer { connection.close() }
        let reply: Received<OrientationState>
        if toggle, try await connection.request(.get, returning: OrientationState.self).value.lock != nil {
            reply = try await connection.request(.unlock, returning: OrientationState.self)
        } else {
            let lockTarget = try target.map(Self.parse) ?? .current
            reply = try await connection.request(.lock, .lock(lockTarget), returning: OrientationState.self)
        }
        Printer(json: global.json).state(reply.value, json: reply.json(at: "result"))
    }

    private static func parse(_ text: String) throws(ValidationError) -> Request.LockTarget {
        do {
            return try Request.LockTarget(argument: text)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
