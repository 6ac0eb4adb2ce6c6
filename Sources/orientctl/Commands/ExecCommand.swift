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
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Runs `watch --exec`'s command with `sh -c`, the state in `ORIENTD_*` variables.
enum ExecCommand {
    /// Runs `command` for `state` and waits for it; nothing while the interface orientation is unknown.
    /// A command that fails is reported on standard error; watching goes on.
    static func run(_ command: String, for state: OrientationState) {
        guard let variables = state.hookEnvironment else { return }
        let outcome = ExternalCommand(
            arguments: ["/bin/sh", "-c", command],
            environment: variables,
            capturesOutput: false
        ).runAndWait()
        if let spawnError = outcome.spawnError {
            StandardStreams.error("orientctl: cannot run /bin/sh: \(Errno(spawnError))")
        } else if outcome.waitStatus & 0x7f != 0 {
            StandardStreams.error("orientctl: the --exec command ended by signal \(outcome.waitStatus & 0x7f)")
        } else if (outcome.waitStatus >> 8) & 0xff != 0 {
            StandardStreams.error(
                "orientctl: the --exec command exited with status \((outcome.waitStatus >> 8) & 0xff)"
            )
        }
    }
}
