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

/// `orientctl tablet-mode on|off|auto`.
struct TabletModeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tablet-mode",
        abstract: "Set tablet mode by hand, or give the decision back; print the new state line.",
        discussion: """
            'on' and 'off' set tablet mode whatever the tablet-mode switch and the hinge angle say \
            (for a convertible where neither works); 'auto' gives the decision back to them. It \
            survives restarts, like the lock. With AutoRotate=tablet-mode, the screen turns only in \
            tablet mode.
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: ArgumentHelp("on, off or auto.", valueName: "on|off|auto"))
    var mode: String

    func validate() throws {
        guard Request.TabletModeSetting(rawValue: mode) != nil else {
            throw ValidationError("'\(mode)' is not a tablet mode: use on, off or auto")
        }
    }

    func run() async throws {
        let setting = Request.TabletModeSetting(rawValue: mode) ?? .auto
        let connection = try global.connect()
        defer { connection.close() }
        let reply = try await connection.request(.tabletMode, .tabletMode(setting), returning: OrientationState.self)
        Printer(json: global.json).state(reply.value, json: reply.json(at: "result"))
    }
}
