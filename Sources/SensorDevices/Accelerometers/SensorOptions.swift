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

public import OrientationCore

/// How to find and read the accelerometer (CONFIG.md `[Sensor]`).
public struct SensorOptions: Sendable, Equatable {
    /// A libiio URI; nil for the local machine.
    public var uri: String?
    /// A device to use instead of choosing: id, name, label or sysfs path.
    public var device: String?
    /// Samples per second to ask for (5–400).
    public var rate: Double
    /// Samples per second while the device is still and its orientation settled (1…`rate`; `rate`: no slowing).
    public var idleRate: Double
    /// Seconds without a scan after enabling the buffer before polling instead.
    public var pollFallback: Double
    /// A configured mount matrix that overrides udev and sysfs.
    public var mountMatrix: MountMatrix?
    /// Poll even when the buffer could be used.
    public var forcePolling: Bool
    /// Which accelerometer to read: the display one (the orientation), or the base one (the hinge angle).
    public var location = SensorLocation.display
    /// Hand on readings of zeros and clipped ones too (for recording); they are still logged and count as silence.
    public var handsOnImplausibleReadings = false

    /// The rate while still unless configured: 2 samples per second, two wake-ups a second while claimed and still,
    /// and a turn is noticed at most half a second after it starts, well inside a hand's turn of 0.5–1 s, after
    /// which the full rate decides it. Samples 0.5 s apart stay within the classifier's 1 s gap.
    public static let defaultIdleRate = 2.0

    /// The defaults of CONFIG.md: local, chosen automatically, 20 Hz (2 Hz while still), 2 s fallback.
    public init(
        uri: String? = nil,
        device: String? = nil,
        rate: Double = 20,
        idleRate: Double = SensorOptions.defaultIdleRate,
        pollFallback: Double = 2,
        mountMatrix: MountMatrix? = nil,
        forcePolling: Bool = false
    ) {
        self.uri = uri
        self.device = device
        self.rate = rate
        self.idleRate = idleRate
        self.pollFallback = pollFallback
        self.mountMatrix = mountMatrix
        self.forcePolling = forcePolling
    }

    /// The same options for the base accelerometer: the same context, rate and fallback, but never the display's
    /// `Device=` or `MountMatrix=` (the base is found by its location and calibrated by its own matrix).
    public var forBase: SensorOptions {
        var options = self
        options.location = .base
        options.device = nil
        options.mountMatrix = nil
        return options
    }
}

extension SensorOptions {
    /// Whether a sensor reading with `old` options must be replaced to read with these: every option says how the
    /// accelerometer is found or read, so any difference does. Compared as a whole (``SensorOptions`` is
    /// `Equatable`), so that an option added later restarts the sensor too.
    public func requiresNewSensor(comparedWith old: SensorOptions) -> Bool {
        self != old
    }
}
