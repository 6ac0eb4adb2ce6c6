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
import OrientationCore

extension BackendKind {
    /// The backend of this kind: for `output` (nil: the built-in panel) and the `touch` devices (empty: those
    /// found), or, for `exec`, the user's `command` with the transforms turned by `panelOffset`.
    /// - Throws: a usage error for `exec` without a command.
    func backend(
        output: String?,
        touch: [String],
        command: String?,
        panelOffset: PanelRotation
    ) throws(ValidationError) -> any DisplayBackend {
        switch self {
        case .sway: return SwayBackend(output: output, touch: touch)
        case .hyprland: return HyprlandBackend(output: output)
        case .niri: return NiriBackend(output: output)
        case .kde: return KDEBackend(output: output)
        case .cosmic: return CosmicBackend(output: output)
        case .wlr: return WlrBackend(output: output)
        case .x11: return X11Backend(output: output, touch: touch)
        case .exec:
            guard let command else { throw ValidationError("--backend exec needs the command: --exec CMD") }
            return ExecBackend(command: command, panelOffset: panelOffset)
        }
    }
}
