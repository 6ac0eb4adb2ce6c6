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

/// Tablet mode from its sources, strongest first: the manual setting (`orientctl tablet-mode on|off`), else the
/// tablet-mode switch, else the hinge between two accelerometers, else nothing. A value, fed by the daemon, with
/// the two things it has to say once: that nothing tells tablet mode, and that the base accelerometer reads
/// implausible values.
public struct TabletModeArbiter: Sendable, Hashable {
    /// What tablet mode is now.
    public enum Decision: Sendable, Hashable {
        /// Nothing tells: no manual setting, no switch, no decision of the hinge.
        case unknown
        /// Folded as a tablet (true) or a laptop (false), and what says so.
        case decided(Bool, by: TabletModeSource)
    }

    /// What a base accelerometer's reading is worth to the hinge.
    public enum BaseReading: Sendable, Hashable {
        /// Plausible (within half a g of 1 g): the hinge takes it.
        case usable
        /// Implausible: ignored.
        case ignored
        /// Implausible for ``implausibleBaseWarningTime`` seconds: ignored, and to be said (once per arbiter).
        case ignoredAndSayOnce
    }

    /// How long (sample time, seconds) the base may read implausibly before it is said.
    public static let implausibleBaseWarningTime = 2.0

    /// The manual setting; nil for `auto`.
    public private(set) var manual: Bool?
    /// What the tablet-mode switch says; nil without a switch.
    public private(set) var switchPosition: Bool?
    /// The hinge's decision while it counts (a base accelerometer that works); nil otherwise.
    public private(set) var hinge: Bool?
    /// Since when (sample time) the base accelerometer reads implausibly; nil while it reads plausibly.
    private var implausibleBaseSince: Double?
    private var saidImplausibleBase = false
    private var saidNothingTells = false

    /// Nothing tells yet.
    public init() {}

    /// The decision of the sources in force.
    public var decision: Decision {
        if let manual { return .decided(manual, by: .manual) }
        if let switchPosition { return .decided(switchPosition, by: .switch) }
        if let hinge { return .decided(hinge, by: .hinge) }
        return .unknown
    }

    /// Tablet mode: true folded as a tablet, false as a laptop, nil when nothing tells.
    public var tabletMode: Bool? {
        guard case .decided(let value, _) = decision else { return nil }
        return value
    }

    /// What tablet mode comes from; nil when nothing tells.
    public var source: TabletModeSource? {
        guard case .decided(_, let source) = decision else { return nil }
        return source
    }

    /// Sets the manual setting (nil: `auto`).
    /// - Returns: the tablet mode before, when the change changes it (`.some(nil)`: it was unknown); nil otherwise.
    public mutating func setManual(_ value: Bool?) -> Bool?? {
        change { $0.manual = value }
    }

    /// Sets what the switch says (nil: no switch any more).
    /// - Returns: the tablet mode before, when the change changes it; nil otherwise.
    public mutating func setSwitch(_ value: Bool?) -> Bool?? {
        change { $0.switchPosition = value }
    }

    /// Sets the hinge's decision (nil: the hinge has not decided, or does not count without a working base).
    /// - Returns: the tablet mode before, when the change changes it; nil otherwise.
    public mutating func setHinge(_ value: Bool?) -> Bool?? {
        change { $0.hinge = value }
    }

    private mutating func change(_ edit: (inout Self) -> Void) -> Bool?? {
        let before = tabletMode
        edit(&self)
        return tabletMode == before ? nil : .some(before)
    }

    /// Judges a base accelerometer reading of `magnitude` g at `time` (sample time): readings far from 1 g (a broken
    /// or uncalibrated base sensor) are ignored; lasting ``implausibleBaseWarningTime`` seconds, they are said once.
    public mutating func judgeBase(magnitude: Double, at time: Double) -> BaseReading {
        guard magnitude < 0.5 || magnitude > 1.5 else {
            implausibleBaseSince = nil
            return .usable
        }
        guard let since = implausibleBaseSince else {
            implausibleBaseSince = time
            return .ignored
        }
        guard !saidImplausibleBase, time - since >= Self.implausibleBaseWarningTime else { return .ignored }
        saidImplausibleBase = true
        return .ignoredAndSayOnce
    }

    /// Whether to say now that nothing tells tablet mode while rotation is to follow it (`AutoRotate=tablet-mode`):
    /// true the first time it happens (at start, on a reload, or when the last source goes), then never again.
    public mutating func shouldSayNothingTells(rotationFollowsTabletMode: Bool) -> Bool {
        guard rotationFollowsTabletMode, decision == .unknown, !saidNothingTells else { return false }
        saidNothingTells = true
        return true
    }
}
