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

import FoundationEssentials
import OrientProtocol
import OrientationCore

/// A backend that turns one output with one command of a tool that can also list the active outputs.
protocol OutputToolBackend: DisplayBackend {
    /// The output to turn; nil: the built-in panel among ``activeOutputs()``.
    var output: String? { get }
    /// What lists the outputs, for reports: `wlr-randr`.
    var source: String { get }
    /// The names of the outputs that are switched on.
    func activeOutputs() async throws(QueryFailure) -> [String]
    /// The command that turns `name` to `rotation`.
    func command(turning name: String, to rotation: PanelRotation) async throws(QueryFailure) -> ExternalCommand
}

extension OutputToolBackend {
    func plan(for state: OrientationState, rotation: PanelRotation) async -> ApplyPlan {
        do throws(QueryFailure) {
            let name: String
            if let output {
                name = output
            } else {
                name = try Self.builtInOutput(among: try await activeOutputs(), from: source)
            }
            return ApplyPlan(commands: [try await command(turning: name, to: rotation)])
        } catch {
            return ApplyPlan(failures: [error.message])
        }
    }

    /// Decodes a tool's JSON answer.
    func decode<Value: Decodable>(_ type: Value.Type, from text: String) throws(QueryFailure) -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: Data(text.utf8))
        } catch {
            throw QueryFailure(message: "cannot read the answer of \(source): \(error)")
        }
    }
}
