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

import OrientProtocol
import OrientationCore
import SensorDevices

/// What the engine shows, read from its parts: the state as clients see it, what the outputs show, the counts.
extension Engine {
    /// The state as clients see it.
    var state: OrientationState {
        OrientationState(
            device: generation.isGenerating ? policy.device : .unknown,
            interface: policy.interface,
            rotation: policy.rotation,
            allowed: policy.allowed,
            lock: policy.lock,
            sensor: sensorState,
            generating: generation.isGenerating,
            seq: publisher.seq,
            tabletMode: tablet.tabletMode,
            tabletModeSource: tablet.source,
            hinge: tablet.angle.map { ($0 * 10).rounded() / 10 },
            suggestion: policy.suggestion
        )
    }

    /// What the outputs show now: the state, the accelerometer as iio-sensor-proxy shows it, tablet mode.
    var published: PublishedState {
        PublishedState(
            state: state,
            hasAccelerometer: hasAccelerometer,
            natural: policy.natural,
            tilt: motion.tilt,
            tabletMode: tablet.decision
        )
    }

    /// Tablet mode as decided, with whether a real switch is present and whether the hinge counts.
    var tabletModeDecision: TabletModeDecision { tablet.decision }
    /// Connections, bus clients and the virtual switch's claim whose count is above zero.
    var generatingConnections: Int { generation.counts.count }
    /// The sum of all counts.
    var generationTotal: Int { generation.total }
    /// Whether anyone generates: whether the sensors run.
    var isGenerating: Bool { generation.isGenerating }
    /// Whether this connection receives events.
    func isGenerating(_ client: ClientID) -> Bool { generation.count(for: client) > 0 }
    /// Whether there is a display accelerometer to read (iio-sensor-proxy's `HasAccelerometer`).
    var hasAccelerometer: Bool { sensorState != .absent && sensors.display.accelerometer != nil }
    /// Whether the interface follows the device orientation now (`AutoRotate=` and tablet mode).
    var followsDevice: Bool { policy.followsDevice }
    /// What the axes' self-check found, in order, for `status`.
    var axesFindings: [AxesCheck.Finding] { axes.findings }
    /// Whether the virtual tablet-mode switch's claim keeps the sensors running to read the hinge.
    var virtualSwitchKeepsSensorsOn: Bool { virtualSwitch.held }
}
