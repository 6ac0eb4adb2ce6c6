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
import OrientProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The orientctl command: query and control orientd (CLI.md).
@main
struct Orientctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orientctl",
        abstract: "Query and control orientd, the screen-orientation daemon.",
        discussion: """
            Output: one line per state, 'device=D interface=I rotation=R lock=L', where R is the \
            rotation in degrees (0, 90, 180, 270) or 'none' while the interface orientation is \
            unknown, and L is 'none' or the locked orientations joined by commas \
            (lock=landscape-left,landscape-right). On a convertible, hinge=H (the hinge angle in \
            degrees, while it is known) and tablet_mode=true|false (while something tells) follow, and \
            suggestion=O while orientd suggests a rotation (the device is turned to O under a lock). \
            With --json: one JSON object per line, the \
            daemon's state or event objects as it sent them.

            Orientations: portrait, portrait-upside-down, landscape-left, landscape-right. Masks: \
            those, landscape, all, all-but-upside-down, or a list of names separated by commas \
            (portrait,landscape-left).

            Exit status: 0 success; 1 orientd answered with an error (printed as \
            'orientctl: CODE: MESSAGE'); 2 usage error; 3 orientd cannot be reached, or went away; \
            4 permission denied.
            """,
        version: OrientdVersion.current,
        subcommands: [
            Get.self, Watch.self, Follow.self, Lock.self, Unlock.self, Rotate.self, Suggest.self, Constrain.self,
            TabletModeCommand.self, Status.self, KWinFocus.self,
        ]
    )

    @OptionGroup var global: GlobalOptions

    /// Runs the command: a usage error exits with status 2 (not ArgumentParser's 64), a failure with its own.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            StandardStreams.error("orientctl: \(failure.message)")
            Glibc.exit(failure.status)
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            StandardStreams.error(fullMessage(for: error))
            Glibc.exit(CommandFailure.usageStatus)
        }
    }
}
