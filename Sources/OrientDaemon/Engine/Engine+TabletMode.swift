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

import Logging
import OrientProtocol
import OrientationCore

/// Tablet mode's inputs (the manual setting, the switch, the hinge), decided by the ``TabletModeArbiter``; a change
/// is a `tablet-mode` event, and it decides whether the interface follows the device (`AutoRotate=tablet-mode`).
extension Engine {
    /// Whether the interface follows the device orientation: always, except with `AutoRotate=tablet-mode` while
    /// tablet mode says the convertible is folded as a laptop. When nothing tells it follows (as `always`).
    static func followsDevice(_ autoRotate: DaemonSettings.AutoRotate, tabletMode: Bool?) -> Bool {
        autoRotate == .always || tabletMode != false
    }

    /// Sets the manual tablet mode (nil: `auto`, the switch or the hinge decides), saved first: when it cannot be
    /// saved nothing changes.
    /// - Throws: ``StateStoreError`` when the state file cannot be written.
    func setManualTabletMode(_ value: Bool?) throws(StateStoreError) {
        guard value != choices.tabletMode else { return }
        try choices.save(tabletMode: value)
        logger.info("manual tablet mode", metadata: ["tablet_mode": "\(value.map { $0 ? "on" : "off" } ?? "auto")"])
        asOneSentChange { tabletModeChanged(arbiter.setManual(value)) }
    }

    /// The tablet-mode switch changed (or appeared, or went).
    func switchChanged(to value: Bool?) {
        asOneSentChange { tabletModeChanged(arbiter.setSwitch(value)) }
    }

    /// The hinge's decision counts anew: it decided, or the base sensor came or went.
    func hingeDecided() {
        asOneSentChange { tabletModeChanged(arbiter.setHinge(hasBase ? hinge.tabletMode : nil)) }
    }

    /// A change of the arbiter: `previous` is the tablet mode before when it changed (nil: no change). A change is
    /// a `tablet-mode` event, and the policy starts or stops following the device (an `interface` event when the
    /// interface moves with it).
    private func tabletModeChanged(_ previous: Bool??) {
        guard let previous else { return }
        publisher.note(.tabletMode, previous: .tabletMode(previous))
        record(policy.setFollowsDevice(Self.followsDevice(settings.autoRotate, tabletMode: arbiter.tabletMode)))
    }

    /// Whether to say that nothing tells tablet mode although rotation is to follow it (said once).
    func shouldSayNothingTellsTabletMode() -> Bool {
        arbiter.shouldSayNothingTells(rotationFollowsTabletMode: settings.autoRotate == .tabletMode)
    }
}
