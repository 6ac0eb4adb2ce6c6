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

/// The options every command takes, before or after its name.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "orientd's socket (default: $ORIENTD_SOCKET, else /run/orientd/socket).",
            valueName: "path"
        )
    )
    var socket: String?

    @Flag(name: .long, help: "Print the daemon's JSON objects, one per line, instead of text.")
    var json = false

    /// The socket to connect to.
    var socketPath: String { socket ?? OrientClient.defaultSocketPath }

    /// Connects to the daemon.
    /// - Throws: the failure to report (status 3, or 4 for `EACCES`).
    func connect() throws(CommandFailure) -> OrientConnection {
        do {
            return try OrientConnection(socketPath: socketPath)
        } catch {
            throw CommandFailure(error)
        }
    }
}
