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

/// ORIENTATION.md, "Masks, lock and constraints": allowed = Supported ∩ lock ∩ constraints, and
/// the resolution rule (device's → current → stay unknown → preferred → first allowed).
@Suite struct RotationPolicyTests {
    let player = ClientID(1)
    let other = ClientID(2)

    @Test(arguments: NaturalOrientation.allCases)
    func startsUnknownWithoutRotation(natural: NaturalOrientation) throws {
        let policy = try RotationPolicy(natural: natural)
        #expect(policy.device == .unknown)
        #expect(policy.interface == .unknown)
        #expect(policy.rotation == nil)
        #expect(policy.lock == nil)
        #expect(policy.constraints.isEmpty)
        #expect(policy.allowed == .all)
        #expect(policy.preferred == (natural == .landscape ? .landscapeRight : .portrait))
    }

    static let drive: [(NaturalOrientation, DeviceOrientation, InterfaceOrientation, Int)] = [
        (.landscape, .landscapeLeft, .landscapeRight, 0),
        (.landscape, .portrait, .portrait, 90),
        (.landscape, .landscapeRight, .landscapeLeft, 180),
        (.landscape, .portraitUpsideDown, .portraitUpsideDown, 270),
        (.portrait, .portrait, .portrait, 0),
        (.portrait, .landscapeRight, .landscapeLeft, 90),
        (.portrait, .portraitUpsideDown, .portraitUpsideDown, 180),
        (.portrait, .landscapeLeft, .landscapeRight, 270),
    ]

    @Test(arguments: drive)
    func deviceOrientationDrivesInterface(
        natural: NaturalOrientation,
        device: DeviceOrientation,
        interface: InterfaceOrientation,
        degrees: Int
    ) throws {
        var policy = try RotationPolicy(natural: natural)
        let change = policy.setDevice(device)
        #expect(policy.device == device)
        #expect(policy.interface == interface)
        #expect(policy.rotation?.degrees == degrees)
        #expect(change.previousDevice == .unknown)
        #expect(change.previousInterface == .unknown)
        #expect(!change.allowedChanged && !change.lockChanged)
    }

    @Test(arguments: [DeviceOrientation.faceUp, .faceDown, .unknown])
    func flatAndUnknownKeepTheLastInterface(device: DeviceOrientation) throws {
        var fresh = try RotationPolicy()
        _ = fresh.setDevice(device)
        #expect(fresh.interface == .unknown)
        #expect(fresh.rotation == nil)

        var policy = try RotationPolicy()
        _ = policy.setDevice(.portrait)
        let change = policy.setDevice(device)
        #expect(policy.device == device)
        #expect(policy.interface == .portrait)
        #expect(policy.rotation == .degrees90)
        #expect(change.previousDevice == .portrait)
        #expect(change.previousInterface == nil)
    }

    @Test func lockToOneOrientation() throws {
        var policy = try RotationPolicy()
        _ = policy.setDevice(.landscapeLeft)
        let locked = try policy.setLock(.portrait)
        #expect(policy.lock == .portrait)
        #expect(policy.allowed == .portrait)
        #expect(policy.interface == .portrait)
        #expect(locked.previousInterface == .landscapeRight)
        #expect(locked.allowedChanged && locked.lockChanged)

        for device in [DeviceOrientation.landscapeRight, .portraitUpsideDown, .faceUp, .landscapeLeft] {
            let change = policy.setDevice(device)
            // The device orientation is never hidden by the lock.
            #expect(policy.device == device)
            #expect(change.previousDevice != nil)
            #expect(policy.interface == .portrait)
            #expect(change.previousInterface == nil)
        }

        let unlocked = try policy.setLock(nil)
        #expect(policy.lock == nil)
        #expect(policy.allowed == .all)
        #expect(policy.interface == .landscapeRight)
        #expect(unlocked.previousInterface == .portrait)
        #expect(unlocked.allowedChanged && unlocked.lockChanged)
    }

    @Test func lockLandscapeStillFlips() throws {
        var policy = try RotationPolicy()
        _ = policy.setDevice(.landscapeLeft)
        _ = try policy.setLock(.landscape)
        #expect(policy.interface == .landscapeRight)
        _ = policy.setDevice(.landscapeRight)
        #expect(policy.interface == .landscapeLeft)
        #expect(policy.rotation == .degrees180)
        _ = policy.setDevice(.portrait)
        #expect(policy.interface == .landscapeLeft)
        _ = policy.setDevice(.landscapeLeft)
        #expect(policy.interface == .landscapeRight)
        #expect(policy.rotation == .degrees0)
    }

    @Test func lockCurrent() throws {
        var policy = try RotationPolicy()
        let before = PolicySnapshot(policy)
        let error = #expect(throws: PolicyError.self) { try policy.lockCurrent() }
        #expect(error?.code == "invalid-orientation")
        #expect(PolicySnapshot(policy) == before)

        _ = policy.setDevice(.portrait)
        let change = try policy.lockCurrent()
        #expect(policy.lock == .portrait)
        #expect(change.lockChanged)
        _ = policy.setDevice(.landscapeLeft)
        #expect(policy.interface == .portrait)
        #expect(policy.device == .landscapeLeft)
    }

    static let forcedWhileUnknown:
        [(NaturalOrientation, InterfaceOrientation?, InterfaceOrientationMask, InterfaceOrientation)] = [
            (.landscape, nil, .all, .landscapeRight),
            (.portrait, nil, .all, .portrait),
            (.landscape, nil, .landscape, .landscapeRight),
            (.portrait, nil, .landscape, .landscapeRight),
            (.landscape, nil, [.portrait, .portraitUpsideDown], .portrait),
            (.landscape, nil, [.portraitUpsideDown, .landscapeLeft], .landscapeLeft),
            (.portrait, nil, [.portraitUpsideDown, .landscapeLeft, .landscapeRight], .landscapeRight),
            (.landscape, nil, .portraitUpsideDown, .portraitUpsideDown),
            (.landscape, .portraitUpsideDown, .all, .portraitUpsideDown),
            (.portrait, .landscapeLeft, .allButUpsideDown, .landscapeLeft),
            (.landscape, .portrait, .landscape, .landscapeRight),
        ]

    @Test(arguments: forcedWhileUnknown)
    func lockWhileUnknownPicksPreferredOrFirstAllowed(
        natural: NaturalOrientation,
        preferred: InterfaceOrientation?,
        mask: InterfaceOrientationMask,
        expected: InterfaceOrientation
    ) throws {
        var locked = try RotationPolicy(natural: natural, preferred: preferred)
        _ = try locked.setLock(mask)
        #expect(locked.interface == expected)
        #expect(locked.rotation != nil)
        #expect(locked.device == .unknown)

        var constrained = try RotationPolicy(natural: natural, preferred: preferred)
        _ = try constrained.setConstraint(mask, for: player)
        #expect(constrained.interface == expected)
    }

    @Test func supportedAloneForcesNothingBeforeTheFirstClassification() throws {
        // Before any classification nothing asks for an orientation: the interface stays unknown.
        var policy = try RotationPolicy(supported: .portrait)
        #expect(policy.interface == .unknown)
        for nothing in [DeviceOrientation.unknown, .faceUp, .faceDown] {
            _ = policy.setDevice(nothing)
            #expect(policy.interface == .unknown)
            #expect(policy.rotation == nil)
        }
    }

    /// `Supported=` excluding the pose the device is held in: the first classification resolves to the preferred
    /// orientation if allowed, else to the first allowed one, instead of leaving the interface unknown until the
    /// device is turned to an allowed pose.
    @Test(
        arguments: [
            (
                NaturalOrientation.landscape, InterfaceOrientationMask.portrait, nil, DeviceOrientation.landscapeLeft,
                InterfaceOrientation.portrait
            ),
            (.landscape, [.portrait, .portraitUpsideDown], .portraitUpsideDown, .landscapeRight, .portraitUpsideDown),
            (.landscape, [.portraitUpsideDown, .landscapeLeft], nil, .portrait, .landscapeLeft),
            (.portrait, .landscape, nil, .portrait, .landscapeRight),
            (.portrait, .landscape, .landscapeLeft, .portraitUpsideDown, .landscapeLeft),
        ]
            as [(
                NaturalOrientation, InterfaceOrientationMask, InterfaceOrientation?, DeviceOrientation,
                InterfaceOrientation
            )]
    )
    func supportedExcludingThePoseResolvesAtTheFirstClassification(
        natural: NaturalOrientation,
        supported: InterfaceOrientationMask,
        preferred: InterfaceOrientation?,
        device: DeviceOrientation,
        expected: InterfaceOrientation
    ) throws {
        var policy = try RotationPolicy(natural: natural, supported: supported, preferred: preferred)
        let change = policy.setDevice(device)
        #expect(policy.interface == expected)
        #expect(policy.rotation != nil)
        #expect(change.previousInterface == .unknown)
        #expect(policy.device == device)
    }

    @Test func supportedExcludingThePoseThenAnAllowedPose() throws {
        var policy = try RotationPolicy(supported: .portrait)
        _ = policy.setDevice(.landscapeLeft)
        #expect(policy.interface == .portrait)
        _ = policy.setDevice(.faceUp)
        #expect(policy.interface == .portrait)
        _ = policy.setDevice(.portrait)
        #expect(policy.interface == .portrait)
        _ = policy.setDevice(.landscapeLeft)
        #expect(policy.interface == .portrait)
    }

    @Test func currentOrientationIsKeptBeforePreferred() throws {
        var policy = try RotationPolicy(preferred: .portraitUpsideDown)
        _ = policy.setDevice(.portrait)
        _ = policy.setDevice(.faceUp)
        _ = try policy.setLock([.portrait, .portraitUpsideDown])
        #expect(policy.interface == .portrait)
        _ = policy.setDevice(.landscapeLeft)
        #expect(policy.interface == .portrait)
        // Not allowed any more: the preferred one is taken.
        _ = try policy.setLock([.portraitUpsideDown, .landscapeLeft])
        #expect(policy.interface == .portraitUpsideDown)
    }

    @Test func constraintsOfClientsIntersect() throws {
        var policy = try RotationPolicy(supported: .allButUpsideDown)
        _ = try policy.setConstraint(.landscape, for: player)
        #expect(policy.allowed == .landscape)
        #expect(policy.interface == .landscapeRight)
        _ = try policy.setConstraint([.landscapeLeft, .portrait], for: other)
        #expect(policy.allowed == .landscapeLeft)
        #expect(policy.interface == .landscapeLeft)
        _ = try policy.setLock([.landscapeLeft, .portraitUpsideDown])
        #expect(policy.allowed == .landscapeLeft)
        #expect(policy.constraints == [player: .landscape, other: [.landscapeLeft, .portrait]])
    }

    @Test func removingAConstraint() throws {
        var policy = try RotationPolicy()
        _ = policy.setDevice(.landscapeLeft)
        _ = try policy.setConstraint(.portrait, for: player)
        _ = try policy.setConstraint(.allButUpsideDown, for: other)
        #expect(policy.interface == .portrait)

        let removed = policy.removeClient(player)
        #expect(policy.constraints == [other: .allButUpsideDown])
        #expect(policy.allowed == .allButUpsideDown)
        #expect(policy.interface == .landscapeRight)
        #expect(removed.previousInterface == .portrait)
        #expect(removed.allowedChanged && !removed.lockChanged)

        let stranger = policy.removeClient(ClientID(99))
        #expect(stranger.isEmpty)
        let cleared = try policy.setConstraint(nil, for: other)
        #expect(policy.constraints.isEmpty)
        #expect(policy.allowed == .all)
        #expect(cleared.allowedChanged && cleared.previousInterface == nil)
    }

    @Test func configurationReload() throws {
        var policy = try RotationPolicy()
        _ = policy.setDevice(.landscapeLeft)
        let reload = try policy.setSupported([.portrait, .portraitUpsideDown])
        #expect(policy.supported == [.portrait, .portraitUpsideDown])
        #expect(policy.allowed == [.portrait, .portraitUpsideDown])
        #expect(policy.interface == .portrait)
        #expect(reload.previousInterface == .landscapeRight && reload.allowedChanged && !reload.lockChanged)

        _ = try policy.setSupported(.all, preferred: .portraitUpsideDown)
        #expect(policy.preferred == .portraitUpsideDown)
        #expect(policy.interface == .landscapeRight)
        _ = try policy.setLock([.portraitUpsideDown, .landscapeLeft])
        #expect(policy.interface == .portraitUpsideDown)
    }
}
