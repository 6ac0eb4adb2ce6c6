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

extension RotationPolicy {
    /// The policy of `settings`: `Natural=`, `Supported=`, `Preferred=`, and suggestions while `SuggestionSec=` is
    /// above 0.
    /// - Throws: ``PolicyError`` when the settings allow nothing.
    init(settings: DaemonSettings) throws(PolicyError) {
        self = try RotationPolicy(
            natural: settings.classifier.natural,
            supported: settings.supported,
            preferred: settings.preferred
        )
        _ = setSuggests(settings.suggestionSeconds > 0)
    }

    /// This policy under reloaded settings (`old` were in force): a new `Natural=` makes a new policy with the lock,
    /// the constraints and the device kept; a new `Supported=` or `Preferred=` applies to this one. A new
    /// `SuggestionSec=` applies to the suggestions made from now on; 0 withdraws the one standing.
    /// - Throws: ``PolicyError`` when `Supported=` would leave nothing allowed with the lock and the constraints.
    func reconfigured(
        from old: DaemonSettings,
        to new: DaemonSettings,
        followsDevice: Bool
    ) throws(PolicyError) -> RotationPolicy {
        var candidate = self
        if new.classifier.natural != natural {
            candidate = try RotationPolicy(settings: new)
            _ = try candidate.setLock(lock)
            for (client, mask) in constraints { _ = try candidate.setConstraint(mask, for: client) }
            _ = candidate.setDevice(device)
        } else if new.supported != old.supported || new.preferred != old.preferred {
            _ = try candidate.setSupported(new.supported, preferred: new.preferred)
        }
        _ = candidate.setFollowsDevice(followsDevice)
        _ = candidate.setSuggests(new.suggestionSeconds > 0)
        return candidate
    }
}

extension DaemonSettings.AutoRotate {
    /// Whether the interface follows the device orientation: always, except with `AutoRotate=tablet-mode` while
    /// tablet mode says the convertible is folded as a laptop. When nothing tells it follows (as `always`).
    func followsDevice(tabletMode: Bool?) -> Bool {
        self == .always || tabletMode != false
    }
}
