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

/// What changed in the state clients see between two moments of a ``RotationPolicy``: the parts that become
/// events. Made from one ``PolicyChange``, or by comparing two policies when a change was made on a copy (a lock
/// saved first, a reloaded configuration).
public struct PolicyChangeSummary: Sendable, Hashable {
    /// The device orientation before, when it changed.
    public var previousDevice: DeviceOrientation?
    /// The interface orientation before, when it or the panel rotation it stands for changed (a new natural
    /// orientation turns the same interface orientation into another rotation).
    public var previousInterface: InterfaceOrientation?
    /// Whether the allowed set or the lock changed.
    public var allowedOrLock: Bool
    /// The suggestion before (nil: there was none), when it changed.
    public var previousSuggestion: InterfaceOrientation??

    /// The summary of one call to the policy.
    public init(_ change: PolicyChange) {
        previousDevice = change.previousDevice
        previousInterface = change.previousInterface
        allowedOrLock = change.allowedChanged || change.lockChanged
        previousSuggestion = change.previousSuggestion
    }

    /// The difference between `old` and `new`.
    public init(from old: RotationPolicy, to new: RotationPolicy) {
        previousDevice = old.device != new.device ? old.device : nil
        let moved = old.interface != new.interface || old.rotation != new.rotation
        previousInterface = moved ? old.interface : nil
        allowedOrLock = old.allowed != new.allowed || old.lock != new.lock
        previousSuggestion = old.suggestion != new.suggestion ? .some(old.suggestion) : nil
    }

    /// Whether nothing changed.
    public var isEmpty: Bool {
        previousDevice == nil && previousInterface == nil && !allowedOrLock && previousSuggestion == nil
    }
}
