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

/// PROTOCOL.md `suggestion`: while a lock keeps the interface from the orientation the device is held in, and
/// everything but the lock allows it, that orientation is suggested; it goes when the device comes back, the lock
/// changes or it is declined (timed out).
@Suite struct RotationPolicySuggestionTests {
    let reader = ClientID(1)

    /// A landscape machine held in landscape, locked there.
    func lockedInLandscape() throws -> RotationPolicy {
        var policy = try RotationPolicy()
        _ = policy.setDevice(.landscapeLeft)
        _ = try policy.lockCurrent()
        #expect(policy.interface == .landscapeRight)
        #expect(policy.suggestion == nil)
        return policy
    }

    @Test func turningUnderALockSuggestsThePose() throws {
        var policy = try lockedInLandscape()
        let change = policy.setDevice(.portrait)
        #expect(policy.interface == .landscapeRight)
        #expect(policy.suggestion == .portrait)
        #expect(change.previousSuggestion == .some(nil))
        #expect(change.previousInterface == nil)
    }

    @Test func anotherTurnMovesTheSuggestion() throws {
        var policy = try lockedInLandscape()
        _ = policy.setDevice(.portrait)
        let change = policy.setDevice(.portraitUpsideDown)
        #expect(policy.suggestion == .portraitUpsideDown)
        #expect(change.previousSuggestion == .some(.portrait))
    }

    @Test(arguments: [DeviceOrientation.landscapeLeft, .faceUp, .faceDown, .unknown])
    func comingBackOrLyingFlatWithdrawsIt(device: DeviceOrientation) throws {
        var policy = try lockedInLandscape()
        _ = policy.setDevice(.portrait)
        let change = policy.setDevice(device)
        #expect(policy.suggestion == nil)
        #expect(change.previousSuggestion == .some(.portrait))
    }

    @Test func aPoseTheLockAllowsSuggestsNothing() throws {
        var policy = try RotationPolicy()
        _ = policy.setDevice(.landscapeLeft)
        _ = try policy.setLock(.landscape)
        let change = policy.setDevice(.landscapeRight)
        #expect(policy.interface == .landscapeLeft)
        #expect(policy.suggestion == nil)
        #expect(change.previousSuggestion == nil)
    }

    @Test func unlockedThereIsNone() throws {
        var policy = try RotationPolicy()
        _ = policy.setDevice(.landscapeLeft)
        _ = try policy.setConstraint(.landscape, for: reader)
        _ = policy.setDevice(.portrait)
        #expect(policy.interface == .landscapeRight)
        #expect(policy.suggestion == nil)
    }

    @Test func unlockingWithdrawsIt() throws {
        var policy = try lockedInLandscape()
        _ = policy.setDevice(.portrait)
        let change = try policy.setLock(nil)
        #expect(policy.interface == .portrait)
        #expect(policy.suggestion == nil)
        #expect(change.previousSuggestion == .some(.portrait))
    }

    @Test func movingTheLockWithdrawsItUntilTheDeviceTurnsAgain() throws {
        var policy = try lockedInLandscape()
        _ = policy.setDevice(.portrait)
        let change = try policy.setLock(InterfaceOrientationMask(.landscapeLeft))
        #expect(policy.interface == .landscapeLeft)
        #expect(policy.suggestion == nil)
        #expect(change.previousSuggestion == .some(.portrait))
        _ = policy.setDevice(.portraitUpsideDown)
        #expect(policy.suggestion == .portraitUpsideDown)
        _ = policy.setDevice(.portrait)
        #expect(policy.suggestion == .portrait)
    }

    @Test func lockingTheSameAgainKeepsIt() throws {
        var policy = try lockedInLandscape()
        _ = policy.setDevice(.portrait)
        let change = try policy.setLock(InterfaceOrientationMask(.landscapeRight))
        #expect(change.isEmpty)
        #expect(policy.suggestion == .portrait)
    }

    @Test func acceptingItLocksThePoseAndEndsIt() throws {
        var policy = try lockedInLandscape()
        _ = policy.setDevice(.portrait)
        let suggestion = try #require(policy.suggestion)
        let change = try policy.setLock(InterfaceOrientationMask(suggestion))
        #expect(policy.interface == .portrait)
        #expect(policy.lock == InterfaceOrientationMask(.portrait))
        #expect(policy.suggestion == nil)
        #expect(change.previousInterface == .landscapeRight)
        // Turned back, the other way is suggested under the new lock.
        _ = policy.setDevice(.landscapeLeft)
        #expect(policy.suggestion == .landscapeRight)
    }

    @Test func aDeclinedSuggestionStaysAwayWhileThePoseLasts() throws {
        var policy = try lockedInLandscape()
        _ = policy.setDevice(.portrait)
        let change = policy.declineSuggestion()
        #expect(policy.suggestion == nil)
        #expect(change.previousSuggestion == .some(.portrait))
        #expect(policy.declineSuggestion().isEmpty)
        // The same pose again (a repeated classification) does not bring it back.
        #expect(policy.setDevice(.portrait).isEmpty)
        #expect(policy.suggestion == nil)
        // Lying flat and lifting again is a new decision: suggested again.
        _ = policy.setDevice(.faceUp)
        _ = policy.setDevice(.portrait)
        #expect(policy.suggestion == .portrait)
    }

    @Test func aConstraintThatForbidsThePoseWithdrawsIt() throws {
        var policy = try lockedInLandscape()
        _ = policy.setDevice(.portrait)
        let change = try policy.setConstraint(.landscape, for: reader)
        #expect(policy.suggestion == nil)
        #expect(change.previousSuggestion == .some(.portrait))
        _ = policy.setDevice(.portraitUpsideDown)
        #expect(policy.suggestion == nil)
        // Without the constraint, the pose held is suggested.
        let removed = policy.removeClient(reader)
        #expect(policy.suggestion == .portraitUpsideDown)
        #expect(removed.previousSuggestion == .some(nil))
    }

    @Test func supportedForbidsIt() throws {
        var policy = try RotationPolicy(supported: .allButUpsideDown)
        _ = policy.setDevice(.landscapeLeft)
        _ = try policy.lockCurrent()
        _ = policy.setDevice(.portraitUpsideDown)
        #expect(policy.suggestion == nil)
        _ = policy.setDevice(.portrait)
        #expect(policy.suggestion == .portrait)
        _ = try policy.setSupported(.landscape)
        #expect(policy.suggestion == nil)
    }

    @Test func switchedOffThereIsNone() throws {
        var policy = try lockedInLandscape()
        _ = policy.setDevice(.portrait)
        let off = policy.setSuggests(false)
        #expect(policy.suggestion == nil)
        #expect(off.previousSuggestion == .some(.portrait))
        _ = policy.setDevice(.portraitUpsideDown)
        #expect(policy.suggestion == nil)
        _ = policy.setSuggests(true)
        #expect(policy.suggestion == .portraitUpsideDown)
    }

    @Test func outOfTabletModeTheNaturalPoseIsAsked() throws {
        var policy = try RotationPolicy()
        _ = policy.setDevice(.portrait)
        _ = try policy.lockCurrent()
        _ = policy.setDevice(.landscapeRight)
        #expect(policy.suggestion == .landscapeLeft)
        // A laptop asks for the natural orientation whatever its pose: that is what would be shown unlocked.
        _ = policy.setFollowsDevice(false)
        #expect(policy.suggestion == .landscapeRight)
    }
}
