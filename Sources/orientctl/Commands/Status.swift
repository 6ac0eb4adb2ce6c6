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

/// `orientctl status`.
struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print orientd's diagnostics: the sensor, the clients, the state.",
        discussion: "With --json: the daemon's status object on one line."
    )

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let connection = try global.connect()
        defer { connection.close() }
        let reply = try await connection.request(.status, returning: StatusReport.self)
        if global.json, let json = reply.json(at: "result") {
            StandardStreams.output(json: json)
        } else {
            StandardStreams.output(reply.value.textBlock)
        }
    }
}
