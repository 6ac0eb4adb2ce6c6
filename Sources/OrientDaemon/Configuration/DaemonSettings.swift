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

public import Logging
public import OrientationCore
public import SensorDevices

/// What the daemon runs with: the configuration of CONFIG.md and the command-line overrides.
public struct DaemonSettings: Sendable {
    /// `[Server] Socket=`.
    public var socketPath = "/run/orientd/socket"
    /// The state directory: `$STATE_DIRECTORY` under systemd, else /var/lib/orientd.
    public var stateDirectory = "/var/lib/orientd"
    /// `[Sensor]`.
    public var sensor = SensorOptions()
    /// `[Classifier]` and `[Policy] Natural=`.
    public var classifier = ClassifierConfiguration()
    /// `[Policy] Supported=`.
    public var supported: InterfaceOrientationMask = .all
    /// `[Policy] Preferred=`; nil for the natural orientation's.
    public var preferred: InterfaceOrientation?
    /// `[Policy] AutoRotate=`.
    public var autoRotate = AutoRotate.always
    /// `[Policy] TabletAngle=` and `LaptopAngle=`: tablet mode from the hinge of two accelerometers.
    public var hinge = HingeConfiguration()
    /// `[Policy] SuggestionSec=`: how long a rotation suggestion stands, in seconds; 0: no suggestions.
    public var suggestionSeconds = DaemonSettings.defaultSuggestionSeconds
    /// `[Policy] VirtualTabletSwitch=`.
    public var virtualTabletSwitch = VirtualTabletSwitchMode.auto
    /// `[Control] Group=`; nil or empty for no group rule.
    public var controlGroup: String? = "orientd"
    /// `[Control] SeatUsers=`.
    public var seatUsers = true
    /// `[Server] MaxClients=`.
    public var maxClients = 64
    /// `[Server] OutputLimitKiB=`, in bytes.
    public var outputLimit = 256 * 1024
    /// `[DBus] Compat=`: serve iio-sensor-proxy's `net.hadess.SensorProxy` on the system bus.
    public var sensorProxyCompat = false
    /// `[DBus] ClaimUsers=`: the system users who may claim sensors on the bus without an active session.
    public var claimUsers = ["geoclue"]
    /// `[Log] Level=`.
    public var logLevel = Logger.Level.info

    /// The defaults of CONFIG.md.
    public init() {}

    /// `SuggestionSec=`'s default: Android shows its rotation button for a few seconds, from a button beside the
    /// thumb; a desktop notification or a bar icon needs a little longer to be seen and reached.
    public static let defaultSuggestionSeconds = 10
    /// `SuggestionSec=`'s range: 0 turns suggestions off.
    public static let suggestionSecondsRange = 0...60

    /// `[Policy] AutoRotate=`: when the device orientation is followed.
    public enum AutoRotate: String, Sendable, CaseIterable {
        /// Always.
        case always
        /// Only while tablet mode (a manual setting, the tablet-mode switch or the hinge) says the convertible is
        /// folded as a tablet; in laptop mode the interface stays at the natural orientation. When nothing tells:
        /// as ``always``.
        case tabletMode = "tablet-mode"
    }

    /// `[Policy] VirtualTabletSwitch=`: when orientd publishes its decision as a `SW_TABLET_MODE` switch of its own
    /// (uinput), for libinput and the desktop. Never while a real switch is present, never while nothing is decided.
    public enum VirtualTabletSwitchMode: String, Sendable, CaseIterable {
        /// When the hinge between two accelerometers decides: on a convertible with a working base accelerometer,
        /// following the hinge or the manual setting.
        case auto
        /// Whenever orientd decides: the hinge or the manual setting, even without a base accelerometer.
        case yes
        /// Never.
        case no
    }
}
