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

/// sway: `swaymsg output NAME transform T`, then `swaymsg input type:touch map_to_output NAME` and
/// `swaymsg input type:tablet_tool map_to_output NAME`, so that sway turns every touch screen and pen (those
/// plugged in later too) with the output.
struct SwayBackend: DisplayBackend {
    /// The output to turn; nil: the built-in panel of `swaymsg -t get_outputs`.
    var output: String?
    /// The input identifiers to map; empty: every input of the types touch and tablet_tool.
    var touch: [String]

    /// The input types mapped when no identifiers are named.
    static let mappedTypes = ["type:touch", "type:tablet_tool"]

    private struct Output: Decodable {
        var name: String
        var active: Bool?
    }

    func plan(for state: OrientationState, rotation: PanelRotation) async -> ApplyPlan {
        var plan = ApplyPlan()
        guard let name = await outputName(output, else: builtInOutput, failingInto: &plan) else { return plan }
        plan.commands.append(Self.swaymsg(["output", name, "transform", rotation.swayTransform]))
        let devices = touch.isEmpty ? Self.mappedTypes : touch
        plan.commands += devices.map { Self.swaymsg(["input", $0, "map_to_output", name]) }
        return plan
    }

    private func builtInOutput() async throws(QueryFailure) -> String {
        let outputs: [Output] = try Self.decode(try await query(["swaymsg", "-t", "get_outputs", "--raw"]))
        return try Self.builtInOutput(
            among: outputs.filter { $0.active ?? true }.map(\.name),
            from: "swaymsg -t get_outputs"
        )
    }

    /// A `swaymsg` command; sway splits the joined arguments at spaces, so a word with a space is quoted.
    private static func swaymsg(_ words: [String]) -> ExternalCommand {
        let quoted = words.map { word in
            word.contains(where: \.isWhitespace) ? "\"" + word.replacing("\"", with: "\\\"") + "\"" : word
        }
        return ExternalCommand(arguments: ["swaymsg"] + quoted)
    }

    private static func decode<Value: Decodable>(_ text: String) throws(QueryFailure) -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: Data(text.utf8))
        } catch {
            throw QueryFailure(message: "cannot read swaymsg's answer: \(error)")
        }
    }
}
