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

/// COSMIC: `cosmic-randr mode --transform normal|rotate90|rotate180|rotate270 --refresh HZ NAME WIDTH HEIGHT`,
/// the current mode read from `cosmic-randr list --kdl` (cosmic-randr sets a transform only with a mode).
struct CosmicBackend: DisplayBackend {
    /// The output to turn; nil: the built-in panel among the enabled outputs of `cosmic-randr list --kdl`.
    var output: String?

    /// An output of `cosmic-randr list --kdl` and its current mode.
    struct Head {
        var name: String
        var enabled: Bool
        /// Width, height and refresh rate in mHz of the current mode.
        var mode: (width: Int, height: Int, refresh: Int)?
    }

    /// Reads `output "eDP-1" enabled=#true {` lines and their `mode 2256 1504 59999 current=#true` lines
    /// (KDL 2; `enabled=true` of KDL 1 too).
    static func heads(in text: String) -> [Head] {
        var heads: [Head] = []
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard let first = words.first else { continue }
            if first == "output", words.count >= 2 {
                let name = words[1].trimmingCharacters(of: "\"")
                let enabled = words.contains("enabled=#true") || words.contains("enabled=true")
                heads.append(Head(name: name, enabled: enabled))
            } else if first == "mode", words.count >= 4,
                words.contains("current=#true") || words.contains("current=true"),
                let width = Int(words[1]), let height = Int(words[2]), let refresh = Int(words[3]), !heads.isEmpty
            {
                heads[heads.count - 1].mode = (width, height, refresh)
            }
        }
        return heads
    }

    func plan(for state: OrientationState, rotation: PanelRotation) async -> ApplyPlan {
        do throws(QueryFailure) {
            let heads = Self.heads(in: try await query(["cosmic-randr", "list", "--kdl"]))
            let name: String
            if let output {
                name = output
            } else {
                name = try Self.builtInOutput(among: heads.filter(\.enabled).map(\.name), from: "cosmic-randr list")
            }
            guard let head = heads.first(where: { $0.name == name }), let mode = head.mode else {
                throw QueryFailure(
                    message: "cosmic-randr list --kdl shows no current mode for \(name) "
                        + "(it lists \(heads.map(\.name).joined(separator: ", ")))"
                )
            }
            let refresh = HyprlandBackend.Monitor.decimal(Double(mode.refresh) / 1000, places: 3)
            return ApplyPlan(commands: [
                ExternalCommand(
                    arguments: [
                        "cosmic-randr", "mode", "--transform", rotation.cosmicTransform, "--refresh", refresh, name,
                        String(mode.width), String(mode.height),
                    ]
                )
            ])
        } catch {
            return ApplyPlan(failures: [error.message])
        }
    }
}

extension Substring {
    /// The text without `character` at either end.
    fileprivate func trimmingCharacters(of character: Character) -> String {
        var text = self
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return String(text)
    }
}
