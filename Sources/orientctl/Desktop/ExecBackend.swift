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
import OrientationCore

/// A command of the user's: `sh -c CMD` with the variables of `orientctl watch --exec`, the transform
/// variables turned by the panel offset.
struct ExecBackend: DisplayBackend {
    var command: String
    var panelOffset: PanelRotation

    func plan(for state: OrientationState, rotation: PanelRotation) async -> ApplyPlan {
        guard let variables = state.hookEnvironment(panelOffset: panelOffset) else { return ApplyPlan() }
        return ApplyPlan(
            commands: [
                ExternalCommand(arguments: ["/bin/sh", "-c", command], environment: variables, capturesOutput: false)
            ]
        )
    }
}
