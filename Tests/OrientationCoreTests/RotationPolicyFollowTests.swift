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

/// `AutoRotate=tablet-mode`: while the policy does not follow the device (a convertible folded as a laptop), the
/// device asks for the natural orientation whatever its pose, and the resolution rule runs on that request.
@Suite struct RotationPolicyFollowTests {
    let player = ClientID(1)

    /// A policy that has seen `device` and then stopped following it.
    private func held(
        natural: NaturalOrientation = .landscape,
        after device: DeviceOrientation
    ) throws -> RotationPolicy {
        var policy = try RotationPolicy(natural: natural)
        _ = policy.setDevice(device)
        _ = policy.setFollowsDevice(false)
        return policy
    }

    static let turns: [(NaturalOrientation, DeviceOrientation)] = [
        (.landscape, .portrait), (.landscape, .landscapeRight), (.landscape, .portraitUpsideDown),
        (.landscape, .faceUp), (.portrait, .landscapeLeft), (.portrait, .portraitUpsideDown),
    ]

    @Test(arguments: turns)
    func heldInterfaceStaysNaturalWhileTheDeviceTurns(natural: NaturalOrientation, device: DeviceOrientation) throws {
        var policy = try held(natural: natural, after: natural == .landscape ? .landscapeLeft : .portrait)
        #expect(policy.interface == .natural(natural))
        let change = policy.setDevice(device)
        #expect(policy.device == device, "the device orientation is still taken and reported")
        #expect(change.previousDevice != nil)
        #expect(change.previousInterface == nil)
        #expect(policy.interface == .natural(natural))
        #expect(policy.rotation?.degrees == 0)
    }

    @Test(arguments: NaturalOrientation.allCases)
    func holdingTurnsTheInterfaceBackToNatural(natural: NaturalOrientation) throws {
        var policy = try RotationPolicy(natural: natural)
        _ = policy.setDevice(.portraitUpsideDown)
        #expect(policy.interface == .portraitUpsideDown)
        let change = policy.setFollowsDevice(false)
        #expect(policy.interface == .natural(natural))
        #expect(change.previousInterface == .portraitUpsideDown)
        #expect(change.previousDevice == nil)
        #expect(!change.allowedChanged && !change.lockChanged, "the allowed set is not touched")
        #expect(policy.device == .portraitUpsideDown)
    }

    /// ORIENTATION.md: the interface is `unknown` until the first classification, held or not; the first
    /// classification then gives the natural orientation, whatever the device's.
    @Test func aHeldPolicyStaysUnknownUntilTheFirstClassification() throws {
        var policy = try RotationPolicy()
        let change = policy.setFollowsDevice(false)
        #expect(policy.device == .unknown)
        #expect(policy.interface == .unknown)
        #expect(change.previousInterface == nil)
        _ = policy.setDevice(.faceUp)
        #expect(policy.interface == .unknown, "face-up asks for nothing, held or not")
        let classified = policy.setDevice(.portrait)
        #expect(policy.interface == .landscapeRight)
        #expect(classified.previousInterface == .unknown)
    }

    @Test func followingAgainTakesTheDeviceOrientationAtOnce() throws {
        var policy = try held(after: .landscapeLeft)
        _ = policy.setDevice(.portrait)
        #expect(policy.interface == .landscapeRight)
        let change = policy.setFollowsDevice(true)
        #expect(policy.interface == .portrait)
        #expect(change.previousInterface == .landscapeRight)
    }

    @Test(arguments: [DeviceOrientation.faceUp, .faceDown, .unknown])
    func followingAgainWhileFlatKeepsNatural(device: DeviceOrientation) throws {
        var policy = try held(after: .portrait)
        _ = policy.setDevice(device)
        let change = policy.setFollowsDevice(true)
        #expect(policy.interface == .landscapeRight)
        #expect(change.isEmpty)
    }

    @Test func settingTheSameValueChangesNothing() throws {
        var policy = try RotationPolicy()
        _ = policy.setDevice(.portrait)
        #expect(policy.setFollowsDevice(true).isEmpty)
        #expect(policy.interface == .portrait)
        _ = policy.setFollowsDevice(false)
        #expect(policy.setFollowsDevice(false).isEmpty)
        #expect(policy.interface == .landscapeRight)
    }

    @Test func aLockThatExcludesTheNaturalOrientationStillWins() throws {
        var policy = try held(after: .landscapeLeft)
        _ = try policy.setLock(InterfaceOrientationMask(.portrait))
        #expect(policy.interface == .portrait)
        _ = policy.setDevice(.landscapeRight)
        #expect(policy.interface == .portrait)
        _ = try policy.setLock(nil)
        #expect(policy.interface == .landscapeRight, "unlocked in laptop mode: back to natural")
    }

    @Test func aLandscapeLockInLaptopModeKeepsTheNaturalLandscape() throws {
        var policy = try held(after: .landscapeLeft)
        _ = try policy.setLock(.landscape)
        _ = policy.setDevice(.landscapeRight)
        #expect(policy.interface == .landscapeRight, "the device's flip is not followed in laptop mode")
        _ = policy.setFollowsDevice(true)
        #expect(policy.interface == .landscapeLeft, "in tablet mode the lock lets the screen flip")
    }

    @Test func aConstraintThatExcludesNaturalResolvesAsTheRuleSays() throws {
        var policy = try RotationPolicy(preferred: .landscapeLeft)
        _ = policy.setFollowsDevice(false)
        _ = try policy.setConstraint([.portrait, .landscapeLeft], for: player)
        #expect(policy.interface == .landscapeLeft, "natural not allowed, current not allowed: the preferred one")
        _ = policy.setDevice(.portrait)
        #expect(policy.interface == .landscapeLeft, "the held device asks for natural, which is not allowed: kept")
        _ = policy.removeClient(player)
        #expect(policy.interface == .landscapeRight)
    }

    @Test func theRequestFollowsTheGate() throws {
        var policy = try RotationPolicy(natural: .portrait)
        _ = policy.setDevice(.faceUp)
        #expect(policy.requestedInterfaceOrientation == nil)
        _ = policy.setFollowsDevice(false)
        #expect(policy.requestedInterfaceOrientation == nil, "a device that asks for nothing, held or not")
        _ = policy.setDevice(.landscapeLeft)
        #expect(policy.requestedInterfaceOrientation == .portrait)
        _ = policy.setFollowsDevice(true)
        #expect(policy.requestedInterfaceOrientation == .landscapeRight)
    }
}
