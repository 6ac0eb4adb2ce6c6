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

/// What one call to ``RotationPolicy`` changed; the daemon turns it into events.
public struct PolicyChange: Sendable, Hashable {
    /// The device orientation before, when it changed.
    public var previousDevice: DeviceOrientation?
    /// The interface orientation before, when it changed.
    public var previousInterface: InterfaceOrientation?
    /// Whether the allowed set changed.
    public var allowedChanged = false
    /// Whether the lock changed (it can change without changing the allowed set).
    public var lockChanged = false
    /// The suggestion before (nil: there was none), when it changed.
    public var previousSuggestion: InterfaceOrientation??

    private var device: DeviceOrientation
    private var interface: InterfaceOrientation
    private var allowed: InterfaceOrientationMask
    private var lock: InterfaceOrientationMask?
    private var suggestion: InterfaceOrientation?

    init(before policy: RotationPolicy) {
        device = policy.device
        interface = policy.interface
        allowed = policy.allowed
        lock = policy.lock
        suggestion = policy.suggestion
    }

    mutating func finish(after policy: RotationPolicy) {
        previousDevice = policy.device != device ? device : nil
        previousInterface = policy.interface != interface ? interface : nil
        allowedChanged = policy.allowed != allowed
        lockChanged = policy.lock != lock
        previousSuggestion = policy.suggestion != suggestion ? .some(suggestion) : nil
    }

    /// Whether anything in the state changed.
    public var isEmpty: Bool {
        previousDevice == nil && previousInterface == nil && !allowedChanged && !lockChanged
            && previousSuggestion == nil
    }
}
