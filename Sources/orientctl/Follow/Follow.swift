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
import FoundationEssentials

/// `orientctl follow`: applies each interface orientation to the display and its touch and pen input.
struct Follow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rotate the display, touch screen and pen with each interface orientation, until interrupted.",
        discussion: discussion
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var arguments: FollowArguments

    /// The settings, resolved by `validate()` (follow.conf read once) for `run()`.
    private var settings: FollowSettings?

    /// The command line's members; ``settings`` is not one.
    private enum CodingKeys: CodingKey {
        case global, arguments
    }

    mutating func validate() throws {
        settings = try FollowSettings(arguments, environment: ProcessInfo.processInfo.environment)
        if arguments.dryRun, global.json {
            throw ValidationError("--dry-run prints commands as text: leave out --json")
        }
    }

    func run() async throws {
        // ArgumentParser validates a command before it runs it; a command made otherwise resolves its settings here.
        let settings = try settings ?? FollowSettings(arguments, environment: ProcessInfo.processInfo.environment)
        try await FollowLoop(settings: settings, json: global.json, dryRun: arguments.dryRun)
            .run(socketPath: global.socketPath)
    }
}
