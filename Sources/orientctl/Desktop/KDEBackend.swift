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

/// KDE Plasma 5.27 and 6, Wayland and X11: `kscreen-doctor output.NAME.rotation.none|left|inverted|right`.
/// Plasma turns the touch screen and pen with the output itself.
struct KDEBackend: OutputToolBackend {
    var output: String?
    var source: String { "kscreen-doctor --json" }

    private struct Configuration: Decodable {
        var outputs: [Output]
    }

    private struct Output: Decodable {
        var name: String
        var connected: Bool?
        var enabled: Bool?
    }

    /// The connected, enabled outputs of `kscreen-doctor --json`.
    func activeOutputs() async throws(QueryFailure) -> [String] {
        let text = try await query(["kscreen-doctor", "--json"])
        return try decode(Configuration.self, from: text).outputs
            .filter { ($0.connected ?? true) && ($0.enabled ?? true) }.map(\.name)
    }

    func command(turning name: String, to rotation: PanelRotation) async throws(QueryFailure) -> ExternalCommand {
        ExternalCommand(arguments: ["kscreen-doctor", "output.\(name).rotation.\(rotation.kscreenRotation)"])
    }
}
