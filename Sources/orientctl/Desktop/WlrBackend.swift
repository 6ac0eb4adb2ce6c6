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

/// Any compositor with wlr-output-management (river, labwc, Wayfire, Hyprland, sway):
/// `wlr-randr --output NAME --transform normal|90|180|270`.
struct WlrBackend: OutputToolBackend {
    var output: String?
    var source: String { "wlr-randr" }

    /// The outputs of `wlr-randr`: a line `eDP-1 "BOE 0x0BCA (eDP-1)"` each, then indented lines, one of
    /// them `Enabled: yes` or `Enabled: no`.
    func activeOutputs() async throws(QueryFailure) -> [String] {
        var names: [String] = []
        var current: String?
        for line in try await query(["wlr-randr"]).split(separator: "\n") {
            if let first = line.first, !first.isWhitespace {
                current = line.split(separator: " ").first.map(String.init)
                if let current { names.append(current) }
            } else if let current, line.trimmingPrefix(while: \.isWhitespace) == "Enabled: no" {
                names.removeAll { $0 == current }
            }
        }
        return names
    }

    func command(turning name: String, to rotation: PanelRotation) async throws(QueryFailure) -> ExternalCommand {
        ExternalCommand(arguments: ["wlr-randr", "--output", name, "--transform", rotation.waylandTransformWord])
    }
}
