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

/// Where the daemon's engine sends its changes: the event lines to the control server's generating connections,
/// the state to sd_notify (`STATUS=`), to the D-Bus service and to the virtual tablet-mode switch, the tilt to the
/// D-Bus service, a settled daemon to the page trimmer, and a rotation suggestion's time to its timer. The server and the D-Bus service are made after the engine
/// (they serve it), so the daemon hands them over as it makes them.
final class DaemonEngineOutput: EngineOutput {
    private let trimmer: PageTrimmer
    private let suggestionTimer: SuggestionTimer
    /// The control socket's server; nil before it is made and after shutdown.
    weak var server: ControlServer?
    /// iio-sensor-proxy's D-Bus API, with `[DBus] Compat=yes`; nil otherwise and after shutdown.
    weak var sensorProxy: SensorProxyService?
    /// orientd's own tablet-mode switch for libinput and the desktop; nil after shutdown.
    weak var virtualSwitch: VirtualSwitchPublisher?
    /// Whether the state goes to sd_notify; off once the daemon is stopping (it says `STOPPING=1` instead).
    var notifiesSystemd = true

    init(trimmer: PageTrimmer, suggestionTimer: SuggestionTimer) {
        self.trimmer = trimmer
        self.suggestionTimer = suggestionTimer
    }

    func broadcast(_ line: [UInt8]) {
        server?.broadcast(line)
    }

    func stateChanged(to state: OrientationState) {
        if notifiesSystemd { Self.notify(status: state) }
        sensorProxy?.refresh()
        virtualSwitch?.update()
    }

    func tiltChanged() {
        sensorProxy?.refresh()
    }

    func settled() {
        trimmer.request()
    }

    func hingeAvailabilityChanged() {
        virtualSwitch?.refreshListeningLater()
    }

    func suggestionStands(for seconds: Double?) {
        suggestionTimer.arm(seconds)
    }

    private static func notify(status state: OrientationState) {
        let text =
            "STATUS=device \(state.device.wireName), interface \(state.interface.wireName), sensor \(state.sensor.rawValue)"
            + (state.lock.map { ", locked to \($0)" } ?? "")
        sd_notify(0, text)
    }
}
