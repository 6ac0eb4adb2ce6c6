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

/// Decides the interface orientation from the device orientation and the allowed set
/// (ORIENTATION.md, masks, lock and constraints).
///
/// The allowed set is the intersection of the configured `Supported=` mask, the lock and every
/// client's constraint. A change that would leave it empty is refused and changes nothing.
///
/// While the policy does not follow the device (``followsDevice`` false: `AutoRotate=tablet-mode` on a
/// convertible folded as a laptop), the device asks for the natural orientation whatever its pose, and the
/// resolution rule runs as usual on that request: the interface goes to the natural orientation if it is
/// allowed, so a lock or constraint that excludes it still wins. The device orientation is kept and reported.
public struct RotationPolicy: Sendable {
    /// The panel's natural orientation.
    public let natural: NaturalOrientation
    /// `[Policy] Supported=`.
    public private(set) var supported: InterfaceOrientationMask
    /// `[Policy] Preferred=`, or the interface orientation of the natural pose.
    public private(set) var preferred: InterfaceOrientation
    /// The lock, if any.
    public private(set) var lock: InterfaceOrientationMask?
    /// The constraint of each client that has one.
    public private(set) var constraints: [ClientID: InterfaceOrientationMask] = [:]
    /// The last device orientation given to the policy.
    public private(set) var device: DeviceOrientation = .unknown
    /// The interface orientation: `unknown` until the device asks for one or a lock or constraint is set.
    public private(set) var interface: InterfaceOrientation = .unknown
    /// Whether the interface follows the device orientation; when false, the device asks for the natural
    /// orientation whatever its pose (`AutoRotate=tablet-mode` in laptop mode).
    public private(set) var followsDevice = true

    /// The orientations allowed now.
    public private(set) var allowed: InterfaceOrientationMask

    /// A policy with no lock and no constraint, interface `unknown`.
    /// - Parameters:
    ///   - natural: the panel's natural orientation.
    ///   - supported: the configured mask; must not be empty.
    ///   - preferred: the orientation taken when the device's is not allowed; nil for the natural one.
    /// - Throws: ``PolicyError`` for an empty `supported` or an `unknown` preference.
    public init(
        natural: NaturalOrientation = .landscape,
        supported: InterfaceOrientationMask = .all,
        preferred: InterfaceOrientation? = nil
    ) throws(PolicyError) {
        guard !supported.isEmpty else { throw PolicyError(.emptyMask) }
        if preferred == .unknown {
            throw PolicyError(.invalidOrientation("the preferred orientation cannot be unknown"))
        }
        self.natural = natural
        self.supported = supported
        self.preferred = preferred ?? .natural(natural)
        allowed = supported
    }

    /// The panel rotation of the interface orientation; nil while it is `unknown`.
    public var rotation: PanelRotation? {
        interface.panelRotation(natural: natural)
    }

    /// Takes a new device orientation and resolves the interface orientation.
    public mutating func setDevice(_ orientation: DeviceOrientation) -> PolicyChange {
        var change = PolicyChange(before: self)
        device = orientation
        resolve()
        change.finish(after: self)
        return change
    }

    /// Starts or stops following the device orientation (the tablet-mode switch under `AutoRotate=tablet-mode`),
    /// and resolves the interface orientation again.
    ///
    /// Never refused: it changes what the device asks for, not the allowed set.
    public mutating func setFollowsDevice(_ follows: Bool) -> PolicyChange {
        var change = PolicyChange(before: self)
        guard follows != followsDevice else { return change }
        followsDevice = follows
        resolve()
        change.finish(after: self)
        return change
    }

    /// The interface orientation the device asks for: its own, or the natural one while the policy does not
    /// follow it; nil when it asks for none (`unknown`, face-up, face-down). A device that asks for nothing
    /// asks for nothing in either case, so that the interface stays `unknown` until the first classification
    /// and keeps its last value while nobody generates (ORIENTATION.md).
    public var requestedInterfaceOrientation: InterfaceOrientation? {
        guard let own = device.requestedInterfaceOrientation else { return nil }
        return followsDevice ? own : .natural(natural)
    }

    /// Sets or removes the lock (`orientctl lock MASK`, `orientctl unlock`).
    /// - Throws: ``PolicyError`` with `emptyMask` when nothing would be allowed; nothing changes then.
    public mutating func setLock(_ mask: InterfaceOrientationMask?) throws(PolicyError) -> PolicyChange {
        try apply { (policy: inout RotationPolicy) in policy.lock = mask }
    }

    /// Locks the current interface orientation (`orientctl lock` with no argument).
    /// - Throws: ``PolicyError`` with `invalidOrientation` while the interface orientation is `unknown`.
    public mutating func lockCurrent() throws(PolicyError) -> PolicyChange {
        guard interface != .unknown else {
            throw PolicyError(.invalidOrientation("there is no current orientation to lock yet"))
        }
        return try setLock(InterfaceOrientationMask(interface))
    }

    /// Sets or removes (nil) one client's constraint.
    /// - Throws: ``PolicyError`` with `emptyMask` when nothing would be allowed; nothing changes then.
    public mutating func setConstraint(
        _ mask: InterfaceOrientationMask?,
        for client: ClientID
    ) throws(PolicyError) -> PolicyChange {
        try apply { (policy: inout RotationPolicy) in policy.constraints[client] = mask }
    }

    /// Removes a client's constraint, as when its connection closes. Never refused: fewer
    /// constraints never leave fewer orientations.
    public mutating func removeClient(_ client: ClientID) -> PolicyChange {
        var change = PolicyChange(before: self)
        guard constraints.removeValue(forKey: client) != nil else { return change }
        allowed = Self.intersection(supported, lock, constraints)
        resolve()
        change.finish(after: self)
        return change
    }

    /// Replaces the configured mask and preference (a configuration reload).
    /// - Throws: ``PolicyError`` when nothing would be allowed; nothing changes then.
    public mutating func setSupported(
        _ mask: InterfaceOrientationMask,
        preferred newPreferred: InterfaceOrientation? = nil
    ) throws(PolicyError) -> PolicyChange {
        if newPreferred == .unknown {
            throw PolicyError(.invalidOrientation("the preferred orientation cannot be unknown"))
        }
        return try apply { (policy: inout RotationPolicy) in
            policy.supported = mask
            policy.preferred = newPreferred ?? .natural(policy.natural)
        }
    }

    /// Applies a change of the allowed set's inputs, refusing it when the set would be empty.
    private mutating func apply(_ edit: (inout RotationPolicy) -> Void) throws(PolicyError) -> PolicyChange {
        var candidate = self
        edit(&candidate)
        let newAllowed = Self.intersection(candidate.supported, candidate.lock, candidate.constraints)
        guard !newAllowed.isEmpty else { throw PolicyError(.emptyMask) }
        var change = PolicyChange(before: self)
        self = candidate
        allowed = newAllowed
        resolve()
        change.finish(after: self)
        return change
    }

    private static func intersection(
        _ supported: InterfaceOrientationMask,
        _ lock: InterfaceOrientationMask?,
        _ constraints: [ClientID: InterfaceOrientationMask]
    ) -> InterfaceOrientationMask {
        var mask = supported
        if let lock { mask.formIntersection(lock) }
        for constraint in constraints.values { mask.formIntersection(constraint) }
        return mask
    }

    /// The resolution rule of ORIENTATION.md (iOS's `attemptRotationToDeviceOrientation`), with one refinement:
    /// the interface stays `unknown` only while the device asks for nothing. A device whose pose the allowed set
    /// excludes (`Supported=portrait` on a machine held in landscape) gets the preferred or first allowed
    /// orientation at its first classification, rather than `unknown` until it happens to be turned to an
    /// allowed pose.
    private mutating func resolve() {
        let asked = requestedInterfaceOrientation
        if let asked, allowed.contains(asked) {
            interface = asked
        } else if allowed.contains(interface) {
            // Keep the current one.
        } else if interface == .unknown && asked == nil && lock == nil && constraints.isEmpty {
            // Nothing asks for an orientation yet and nothing forces one.
        } else if allowed.contains(preferred) {
            interface = preferred
        } else if let first = Self.fallbackOrder.first(where: { allowed.contains($0) }) {
            interface = first
        }
    }

    /// The order in which an orientation is picked when neither the device's nor the preferred one is allowed.
    public static let fallbackOrder: [InterfaceOrientation] = [
        .portrait, .landscapeRight, .landscapeLeft, .portraitUpsideDown,
    ]
}
