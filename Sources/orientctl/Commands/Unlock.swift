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

/// `orientctl unlock`.
struct Unlock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Remove the lock, and print the new state line.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let connection = try global.connect()
        defer { connection.close() }
        let reply = try await connection.request(.unlock, returning: OrientationState.self)
        Printer(json: global.json).state(reply.value, json: reply.json(at: "result"))
    }
}
