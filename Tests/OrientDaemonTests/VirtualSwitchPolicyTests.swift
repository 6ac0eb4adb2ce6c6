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
import Testing

@testable import OrientDaemon

/// When the virtual tablet-mode switch exists and what it says, for each `[Policy] VirtualTabletSwitch=`.
@Suite struct VirtualSwitchPolicyTests {
    typealias Inputs = TabletModeDecision

    /// Tablet mode, its source, a real switch present, a working base accelerometer; what auto, yes and no publish
    /// (nil: no virtual switch).
    @Test(
        arguments: [
            // Nothing decided: no switch, whatever the setting.
            (Inputs(tabletMode: nil, source: nil, realSwitch: false, hinge: false), nil, nil),
            (Inputs(tabletMode: nil, source: nil, realSwitch: false, hinge: true), nil, nil),
            // The hinge decides.
            (Inputs(tabletMode: true, source: .hinge, realSwitch: false, hinge: true), true, true),
            (Inputs(tabletMode: false, source: .hinge, realSwitch: false, hinge: true), false, false),
            // The manual setting on a convertible with a hinge, and on a machine without one.
            (Inputs(tabletMode: true, source: .manual, realSwitch: false, hinge: true), true, true),
            (Inputs(tabletMode: false, source: .manual, realSwitch: false, hinge: true), false, false),
            (Inputs(tabletMode: true, source: .manual, realSwitch: false, hinge: false), nil, true),
            (Inputs(tabletMode: false, source: .manual, realSwitch: false, hinge: false), nil, false),
            // A real switch: never a second one, even when the manual setting overrides it.
            (Inputs(tabletMode: true, source: .switch, realSwitch: true, hinge: true), nil, nil),
            (Inputs(tabletMode: false, source: .switch, realSwitch: true, hinge: false), nil, nil),
            (Inputs(tabletMode: true, source: .manual, realSwitch: true, hinge: true), nil, nil),
            (Inputs(tabletMode: false, source: .manual, realSwitch: true, hinge: false), nil, nil),
        ] as [(Inputs, Bool?, Bool?)]
    )
    func published(inputs: Inputs, auto: Bool?, yes: Bool?) {
        #expect(VirtualSwitchPolicy(mode: .auto).published(inputs) == auto, "auto")
        #expect(VirtualSwitchPolicy(mode: .yes).published(inputs) == yes, "yes")
        #expect(VirtualSwitchPolicy(mode: .no).published(inputs) == nil, "no")
    }

    /// Whether the daemon itself reads the hinge for the switch: (a working base accelerometer, a real switch) and
    /// what auto, yes and no say.
    @Test(
        arguments: [
            (true, false, true, true),
            (true, true, false, false),
            (false, false, false, false),
            (false, true, false, false),
        ] as [(Bool, Bool, Bool, Bool)]
    )
    func listens(hinge: Bool, realSwitch: Bool, auto: Bool, yes: Bool) {
        #expect(VirtualSwitchPolicy(mode: .auto).listens(hinge: hinge, realSwitch: realSwitch) == auto, "auto")
        #expect(VirtualSwitchPolicy(mode: .yes).listens(hinge: hinge, realSwitch: realSwitch) == yes, "yes")
        #expect(!VirtualSwitchPolicy(mode: .no).listens(hinge: hinge, realSwitch: realSwitch), "no")
    }
}
