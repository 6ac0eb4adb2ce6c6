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

import OrientationCore
import Testing

/// Every observable property of a policy, to check that a refused change changes nothing.
struct PolicySnapshot: Equatable, CustomStringConvertible {
    var natural: NaturalOrientation
    var supported: InterfaceOrientationMask
    var preferred: InterfaceOrientation
    var lock: InterfaceOrientationMask?
    var constraints: [ClientID: InterfaceOrientationMask]
    var device: DeviceOrientation
    var interface: InterfaceOrientation
    var allowed: InterfaceOrientationMask
    var rotation: PanelRotation?

    init(_ p: RotationPolicy) {
        (natural, supported, preferred, lock) = (p.natural, p.supported, p.preferred, p.lock)
        (constraints, device, interface, allowed, rotation) = (
            p.constraints, p.device, p.interface, p.allowed, p.rotation
        )
    }

    var description: String {
        "device \(device) interface \(interface) allowed \(allowed) lock \(String(describing: lock))"
    }
}

/// ORIENTATION.md: "A change whose result would be empty is refused with an error and changes
/// nothing"; PROTOCOL.md: a change reports what changed, and "locking what is already locked"
/// changes nothing.
@Suite struct RotationPolicyRefusalTests {
    let player = ClientID(1)
    let other = ClientID(2)

    /// Runs a change that must be refused with `code` and checks that nothing changed.
    func expectRefused(
        _ policy: RotationPolicy,
        code: String,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ edit: (inout RotationPolicy) throws(PolicyError) -> PolicyChange
    ) {
        var copy = policy
        do {
            let change = try edit(&copy)
            Issue.record("accepted, changed \(change)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, sourceLocation: sourceLocation)
        }
        #expect(PolicySnapshot(copy) == PolicySnapshot(policy), sourceLocation: sourceLocation)
    }

    @Test func emptyResultIsRefusedAndChangesNothing() throws {
        var policy = try RotationPolicy(supported: .allButUpsideDown)
        _ = policy.setDevice(.landscapeLeft)
        _ = try policy.setConstraint(.portrait, for: player)
        #expect(policy.interface == .portrait)

        expectRefused(policy, code: "empty-mask") { p throws(PolicyError) in try p.setLock(.landscape) }
        expectRefused(policy, code: "empty-mask") { p throws(PolicyError) in try p.setLock([]) }
        expectRefused(policy, code: "empty-mask") { p throws(PolicyError) in
            try p.setConstraint(.landscapeRight, for: other)
        }
        expectRefused(policy, code: "empty-mask") { p throws(PolicyError) in
            try p.setConstraint(.portraitUpsideDown, for: player)
        }
        expectRefused(policy, code: "empty-mask") { p throws(PolicyError) in try p.setConstraint([], for: other) }
        expectRefused(policy, code: "empty-mask") { p throws(PolicyError) in try p.setSupported(.landscape) }
        expectRefused(policy, code: "empty-mask") { p throws(PolicyError) in try p.setSupported([]) }
        expectRefused(policy, code: "empty-mask") { p throws(PolicyError) in
            try p.setSupported(.portraitUpsideDown, preferred: .portraitUpsideDown)
        }
        let error = #expect(throws: PolicyError.self) { try RotationPolicy(supported: []) }
        #expect(error?.code == "empty-mask")
    }

    @Test func changeReportsExactlyWhatChanged() throws {
        var policy = try RotationPolicy(supported: .landscape)
        let first = policy.setDevice(.landscapeLeft)
        #expect(first.previousDevice == .unknown && first.previousInterface == .unknown)
        let again = policy.setDevice(.landscapeLeft)
        #expect(again.isEmpty)

        // The lock changes, the allowed set does not (Supported is already landscape).
        let lock = try policy.setLock(.landscape)
        #expect(lock.lockChanged && !lock.allowedChanged)
        #expect(lock.previousDevice == nil && lock.previousInterface == nil)
        #expect(!lock.isEmpty)
        // Locking what is already locked changes nothing.
        let relock = try policy.setLock(.landscape)
        #expect(relock.isEmpty)

        let narrower = try policy.setLock(.landscapeLeft)
        #expect(narrower.lockChanged && narrower.allowedChanged)
        #expect(narrower.previousInterface == .landscapeRight)
        #expect(policy.interface == .landscapeLeft)

        let flat = policy.setDevice(.faceDown)
        #expect(flat.previousDevice == .landscapeLeft && flat.previousInterface == nil)
        #expect(!flat.allowedChanged && !flat.lockChanged)
    }
}
