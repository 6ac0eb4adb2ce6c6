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
import OrientationCore

/// Tablet mode from its three inputs (the manual setting, the switch, the hinge of a two-accelerometer convertible),
/// decided by the ``TabletModeArbiter``, with the hinge itself: its angle, and whether its decision counts (a working
/// base accelerometer). A value that owns its state: each input returns the tablet mode before it when the decision
/// changed (`.some(previous)`), nil when it did not. No allocation on the samples' path.
struct TabletModeState {
    private let logger: Logger
    private var arbiter = TabletModeArbiter()
    private var hinge: HingeMonitor
    /// Whether there is a working base accelerometer whose hinge counts (kept for the hot path).
    private(set) var hasBase = false

    init(hinge configuration: HingeConfiguration, logger: Logger) {
        self.logger = logger
        hinge = HingeMonitor(configuration: configuration)
    }

    /// Tablet mode now; nil when nothing tells.
    var tabletMode: Bool? { arbiter.tabletMode }
    /// What decides it; nil when nothing tells.
    var source: TabletModeSource? { arbiter.source }
    /// The hinge angle in degrees; nil while unknown.
    var angle: Double? { hinge.angle }
    /// Tablet mode as decided, with whether a real switch is present and whether the hinge counts.
    var decision: TabletModeDecision {
        TabletModeDecision(
            tabletMode: arbiter.tabletMode,
            source: arbiter.source,
            realSwitch: arbiter.switchPosition != nil,
            hinge: hasBase
        )
    }

    /// The manual setting (nil: `auto`).
    mutating func setManual(_ value: Bool?) -> Bool?? { arbiter.setManual(value) }

    /// The tablet-mode switch's position (nil: there is none).
    mutating func setSwitch(_ value: Bool?) -> Bool?? { arbiter.setSwitch(value) }

    /// One sample of the display accelerometer, for the hinge while it counts.
    mutating func hinge(display sample: Sample) -> Bool?? {
        guard hasBase, hinge.update(sample, from: .display) else { return nil }
        return hingeCounts()
    }

    /// What a base sample did.
    enum BaseSample {
        /// Far from 1 g: ignored.
        case ignored
        /// Taken by the hinge; `decided` is the change of tablet mode it made.
        case usable(decided: Bool??)
    }

    /// One sample of the base accelerometer, on the display's clock, judged first: readings far from 1 g are
    /// ignored, and said once when they last (``TabletModeArbiter/judgeBase(magnitude:at:)``).
    mutating func hinge(base sample: Sample) -> BaseSample {
        switch arbiter.judgeBase(magnitude: sample.acceleration.magnitude / HingeMonitor.gravity, at: sample.time) {
        case .usable:
            return .usable(decided: hinge.update(sample, from: .base) ? hingeCounts() : nil)
        case .ignored:
            return .ignored
        case .ignoredAndSayOnce:
            logger.warning(
                "the base accelerometer reads implausible values: ignored, the hinge angle is unknown",
                metadata: ["magnitude": "\(sample.acceleration.magnitude) m/s²"]
            )
            return .ignored
        }
    }

    /// The hinge's decision counts anew: it decided, or the base sensor came or went.
    mutating func hingeCounts() -> Bool?? {
        arbiter.setHinge(hasBase ? hinge.tabletMode : nil)
    }

    /// Whether the hinge counts now; true when that changed.
    mutating func setHasBase(_ value: Bool) -> Bool {
        defer { hasBase = value }
        return value != hasBase
    }

    /// What the base sensor's new status does to the hinge: one that stops leaves the angle unknown until it
    /// captures again; one that is gone or failing takes the hinge's readings and decision with it.
    mutating func baseStatusChanged(to status: SensorState) {
        switch status {
        case .active: return
        case .stopped: hinge.forget(.base)
        case .absent, .failed: forgetHinge()
        }
    }

    /// The hinge starts afresh: no readings, no angle, no decision.
    mutating func forgetHinge() {
        hinge = HingeMonitor(configuration: hinge.configuration)
    }

    /// Nobody generates: the angle is unknown; the decision stands.
    mutating func stopHinge() { hinge.stop() }

    /// New thresholds, from the next reliable angle; the readings and the decision are kept.
    mutating func reconfigure(hinge configuration: HingeConfiguration) { hinge.configuration = configuration }

    /// With `AutoRotate=tablet-mode` and nothing telling tablet mode (no switch, no decision from the hinge, no manual
    /// setting), rotation follows the device as with `always`: said once, the first time it happens (at start, on
    /// reload, or when the last source goes).
    mutating func sayIfNothingTells(autoRotate: DaemonSettings.AutoRotate, baseAccelerometer: Bool) {
        guard arbiter.shouldSayNothingTells(rotationFollowsTabletMode: autoRotate == .tabletMode) else { return }
        logger.notice(
            "AutoRotate=tablet-mode, but no tablet-mode switch (SW_TABLET_MODE) is found: rotating as with 'always' until tablet mode is known",
            metadata: ["hinge": "\(baseAccelerometer ? "not decided yet" : "no base accelerometer")"]
        )
    }
}
