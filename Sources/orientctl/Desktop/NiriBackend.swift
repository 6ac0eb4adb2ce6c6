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

/// niri: `niri msg output NAME transform normal|90|180|270` (counter-clockwise, as niri-ipc says).
struct NiriBackend: OutputToolBackend {
    var output: String?
    var source: String { "niri msg --json outputs" }

    private struct Output: Decodable {
        var name: String
        var currentMode: Int?

        private enum CodingKeys: String, CodingKey {
            case name
            case currentMode = "current_mode"
        }
    }

    /// The outputs of `niri msg --json outputs` (an object of outputs by name) that have a mode.
    func activeOutputs() async throws(QueryFailure) -> [String] {
        let text = try await query(["niri", "msg", "--json", "outputs"])
        return try decode([String: Output].self, from: text).values.filter { $0.currentMode != nil }.map(\.name)
            .sorted()
    }

    func command(turning name: String, to rotation: PanelRotation) async throws(QueryFailure) -> ExternalCommand {
        ExternalCommand(arguments: ["niri", "msg", "output", name, "transform", rotation.waylandTransformWord])
    }
}
