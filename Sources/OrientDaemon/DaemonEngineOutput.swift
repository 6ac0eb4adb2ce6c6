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

import CSystemd
import OrientProtocol
import OrientationCore

/// Where the daemon's engine sends its changes, each output given what it shows: the event lines to the control
/// socket's generating connections (``ControlConnections``), the state to sd_notify (`STATUS=`), to the D-Bus
/// service (``SensorProxyPublisher``) and, its tablet-mode decision, to the virtual tablet-mode switch; the tilt to
/// the D-Bus service. The connections, the D-Bus publisher and the virtual switch are made before the engine and
/// given here when this is made.
final class DaemonEngineOutput: EngineOutput {
    private let connections: ControlConnections
    /// iio-sensor-proxy's D-Bus API, with `[DBus] Compat=yes`; nil otherwise.
    private let sensorProxy: SensorProxyPublisher?
    /// orientd's own tablet-mode switch for libinput and the desktop.
    private let virtualSwitch: VirtualSwitchPublisher
    /// Whether the state goes to sd_notify and the virtual switch; off once the daemon is stopping (it says
    /// `STOPPING=1` instead, and removes the switch).
    private(set) var publishes = true

    init(
        connections: ControlConnections,
        sensorProxy: SensorProxyPublisher?,
        virtualSwitch: VirtualSwitchPublisher
    ) {
        self.connections = connections
        self.sensorProxy = sensorProxy
        self.virtualSwitch = virtualSwitch
    }

    /// Nothing more goes to sd_notify or the virtual switch: the daemon is stopping.
    func stopPublishing() {
        publishes = false
    }

    func deliver(_ line: [UInt8], to generation: GenerationCounter) {
        connections.broadcast(line, to: generation)
    }

    func stateChanged(to published: PublishedState) {
        if publishes { Self.notify(status: published.state) }
        sensorProxy?.show(published)
        if publishes { virtualSwitch.show(published.tabletMode) }
    }

    func tiltChanged(to tilt: DeviceTilt) {
        sensorProxy?.show(tilt: tilt)
    }

    private static func notify(status state: OrientationState) {
        let text =
            "STATUS=device \(state.device.wireName), interface \(state.interface.wireName), sensor \(state.sensor.rawValue)"
            + (state.lock.map { ", locked to \($0)" } ?? "")
        sd_notify(0, text)
    }
}
