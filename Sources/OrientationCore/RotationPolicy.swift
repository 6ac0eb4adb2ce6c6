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
///
/// While a lock keeps the interface from the orientation the device asks for, and everything but the lock allows
/// it, that orientation is the rotation ``suggestion`` (Android's rotation suggestion, PROTOCOL.md `suggestion`).
/// It goes when the device asks for another orientation, when the lock changes, and when it is declined
/// (``declineSuggestion()``: its time ran out); a declined one does not come back while the device stays in that
/// pose. The policy keeps no time: the daemon's timer declines it.
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
    /// The orientations everything but the lock allows: `Supported=` and the constraints.
    public private(set) var allowedUnlocked: InterfaceOrientationMask
    /// Whether the policy makes rotation suggestions (`[Policy] SuggestionSec=` above 0).
    public private(set) var suggests = true
    /// The rotation suggestion: the orientation the device asks for while only the lock keeps the interface from
    /// it; nil when there is none.
    public private(set) var suggestion: InterfaceOrientation?
    /// The orientation whose suggestion was declined (timed out) or overtaken by a change of lock, while the device
    /// still asks for it: it is not suggested again until the device asks for another one.
    private var declined: InterfaceOrientation?

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
        allowedUnlocked = supported
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
    ///
    /// A change of lock withdraws the suggestion: the orientation the device asks for now is not suggested again
    /// until the device asks for another one.
    public mutating func setLock(_ mask: InterfaceOrientationMask?) throws(PolicyError) -> PolicyChange {
        try apply { (policy: inout RotationPolicy) in
            guard policy.lock != mask else { return }
            policy.lock = mask
            policy.declined = policy.requestedInterfaceOrientation
        }
    }

    /// Withdraws the suggestion standing now (its time ran out): it is not made again until the device asks for
    /// another orientation.
    public mutating func declineSuggestion() -> PolicyChange {
        var change = PolicyChange(before: self)
        guard let suggestion else { return change }
        declined = suggestion
        resolve()
        change.finish(after: self)
        return change
    }

    /// Turns rotation suggestions on or off (`[Policy] SuggestionSec=` 0 turns them off). Never refused.
    public mutating func setSuggests(_ on: Bool) -> PolicyChange {
        var change = PolicyChange(before: self)
        guard on != suggests else { return change }
        suggests = on
        resolve()
        change.finish(after: self)
        return change
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
        allowedUnlocked = Self.intersection(supported, nil, constraints)
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
        allowedUnlocked = Self.intersection(supported, nil, constraints)
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
        resolveSuggestion(asked: asked)
    }

    /// The suggestion after a change: the orientation the device asks for, when only the lock keeps the interface
    /// from it and it was not declined.
    private mutating func resolveSuggestion(asked: InterfaceOrientation?) {
        if declined != asked { declined = nil }
        if suggests, lock != nil, let asked, asked != declined, !allowed.contains(asked),
            allowedUnlocked.contains(asked)
        {
            suggestion = asked
        } else {
            suggestion = nil
        }
    }

    /// The order in which an orientation is picked when neither the device's nor the preferred one is allowed.
    public static let fallbackOrder: [InterfaceOrientation] = [
        .portrait, .landscapeRight, .landscapeLeft, .portraitUpsideDown,
    ]
}

/// A request the policy refuses; nothing changed.
public struct PolicyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why it was refused.
    public enum Reason: Sendable, Hashable {
        /// The change would allow no orientation at all.
        case emptyMask
        /// There is no such orientation, or none to take.
        case invalidOrientation(String)
    }

    /// Why it was refused.
    public var reason: Reason

    init(_ reason: Reason) {
        self.reason = reason
    }

    /// The protocol's error code (`empty-mask`, `invalid-orientation`).
    public var code: String {
        switch reason {
        case .emptyMask: "empty-mask"
        case .invalidOrientation: "invalid-orientation"
        }
    }

    public var description: String {
        switch reason {
        case .emptyMask:
            "the change would allow no orientation: the configured orientations, the lock and the clients' constraints have none in common"
        case .invalidOrientation(let message):
            message
        }
    }
}
