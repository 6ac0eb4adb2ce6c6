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

import OrientationCore

/// Whether orientd's own tablet-mode switch (``VirtualSwitchPublisher``) exists, and what it says: a pure value of
/// `[Policy] VirtualTabletSwitch=` and the engine's ``TabletModeDecision``.
///
/// Never two switches: a real `SW_TABLET_MODE` switch present means no virtual one, whatever the manual setting says
/// (the desktop reads the real one). Never a guess: while tablet mode is not decided there is no virtual switch.
struct VirtualSwitchPolicy: Sendable, Hashable {
    /// `[Policy] VirtualTabletSwitch=`.
    var mode: DaemonSettings.VirtualTabletSwitchMode

    /// Whether the daemon itself keeps the sensors running so that the hinge is read with no client generating:
    /// while the switch could be wanted (not `no`, a base accelerometer whose hinge counts, no real switch).
    /// Otherwise nobody would read the fold that makes the switch, and the desktop waits for the switch to read.
    func listens(hinge: Bool, realSwitch: Bool) -> Bool {
        mode != .no && hinge && !realSwitch
    }

    /// Whether the switch could be wanted for `decision`: ``listens(hinge:realSwitch:)`` of its sources.
    func listens(_ decision: TabletModeDecision) -> Bool {
        listens(hinge: decision.hinge, realSwitch: decision.realSwitch)
    }

    /// The virtual switch's state for `inputs`: nil when there is to be none.
    func published(_ inputs: TabletModeDecision) -> Bool? {
        guard mode != .no, !inputs.realSwitch, let tabletMode = inputs.tabletMode, let source = inputs.source else {
            return nil
        }
        switch source {
        case .switch:
            return nil
        case .hinge:
            return tabletMode
        case .manual:
            return mode == .yes || inputs.hinge ? tabletMode : nil
        }
    }
}
