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

package import OrientProtocol
package import OrientationCore

/// What the engine's outputs show after a change, handed to them with the change (``EngineOutput``): an output
/// never reads the engine back. The state clients see (events, `get`, sd_notify's `STATUS=`), the accelerometer as
/// iio-sensor-proxy's properties show it, and the tablet-mode decision the virtual tablet-mode switch shows.
package struct PublishedState {
    /// The state as clients see it (PROTOCOL.md).
    package var state: OrientationState
    /// Whether there is a display accelerometer to read (iio-sensor-proxy's `HasAccelerometer`).
    package var hasAccelerometer: Bool
    /// The panel's natural orientation in force.
    package var natural: NaturalOrientation
    /// The tilt (iio-sensor-proxy's `AccelerometerTilt`); undefined unless the engine follows it.
    package var tilt: DeviceTilt
    /// Tablet mode as decided, with what the virtual switch needs to know of its sources.
    package var tabletMode: TabletModeDecision
}

/// Tablet mode as the engine decided it (``TabletModeArbiter``), and what the virtual tablet-mode switch's policy
/// (``VirtualSwitchPolicy``) needs to know of its sources.
package struct TabletModeDecision: Sendable, Hashable {
    /// Tablet mode now; nil when nothing tells.
    package var tabletMode: Bool?
    /// What decides it; nil when nothing tells.
    package var source: TabletModeSource?
    /// Whether a real tablet-mode switch is present.
    package var realSwitch: Bool
    /// Whether the hinge counts: a base accelerometer that works.
    package var hinge: Bool

    package init(tabletMode: Bool?, source: TabletModeSource?, realSwitch: Bool, hinge: Bool) {
        self.tabletMode = tabletMode
        self.source = source
        self.realSwitch = realSwitch
        self.hinge = hinge
    }
}
