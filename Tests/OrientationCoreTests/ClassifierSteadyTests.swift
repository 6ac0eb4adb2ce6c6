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

/// The classifier of CLASSIFIER.md on steady, synthetic vectors in the frame of ORIENTATION.md
/// (normal y ≈ −g, left-up x ≈ +g, right-up x ≈ −g, bottom-up y ≈ +g, face-up z ≈ +g, face-down z ≈ −g).
@Suite struct ClassifierSteadyTests {
    static let poses: [(NaturalOrientation, Pose, DeviceOrientation)] = [
        (.landscape, .normal, .landscapeLeft),
        (.landscape, .leftUp, .portrait),
        (.landscape, .bottomUp, .landscapeRight),
        (.landscape, .rightUp, .portraitUpsideDown),
        (.portrait, .normal, .portrait),
        (.portrait, .leftUp, .landscapeRight),
        (.portrait, .bottomUp, .portraitUpsideDown),
        (.portrait, .rightUp, .landscapeLeft),
    ]

    @Test(arguments: poses)
    func eachPoseHeldStill(natural: NaturalOrientation, pose: Pose, device: DeviceOrientation) {
        var driver = ClassifierDriver(natural: natural)
        #expect(driver.device == .unknown)
        #expect(driver.pose == nil)
        driver.hold(Gravity.of(pose), for: 2)
        #expect(driver.device == device)
        #expect(driver.pose == pose)
        #expect(driver.devices == [device])
    }

    @Test(
        arguments: NaturalOrientation.allCases,
        [(Gravity.faceUp, DeviceOrientation.faceUp), (Gravity.faceDown, .faceDown)]
    )
    func lyingFlat(natural: NaturalOrientation, flat: (Vector3, DeviceOrientation)) {
        var driver = ClassifierDriver(natural: natural)
        driver.hold(flat.0, for: 2)
        #expect(driver.device == flat.1)
        #expect(driver.devices.last == flat.1)
        #expect(!driver.devices.contains(flat.1 == .faceUp ? .faceDown : .faceUp))
    }

    @Test(arguments: poses)
    func nearFlatBelowTheFaceAngleIsStillAPose(natural: NaturalOrientation, pose: Pose, device: DeviceOrientation) {
        var driver = ClassifierDriver(natural: natural)
        driver.hold(Gravity.tilted(Gravity.of(pose), towardFaceUp: 60), for: 2)
        #expect(driver.device == device)
        #expect(driver.devices == [device])
    }

    static let diagonals: [(Double, Set<Pose>)] = [
        (45, [.normal, .leftUp]), (135, [.leftUp, .bottomUp]), (225, [.bottomUp, .rightUp]),
        (315, [.rightUp, .normal]),
    ]

    @Test(arguments: diagonals)
    func heldAtExactly45DegreesFromTheStart(angle: Double, neighbours: Set<Pose>) throws {
        var driver = ClassifierDriver()
        driver.hold(Gravity.upright(turnedClockwise: angle), for: 10)
        let pose = try #require(driver.pose)
        #expect(neighbours.contains(pose))
        #expect(driver.poses.count == 1, "flipped: \(driver.poses)")
        #expect(driver.devices == [pose.deviceOrientation(natural: .landscape)])
    }

    static let towardDiagonals: [(Double, Double)] = [
        (0, 45), (90, 45), (90, 135), (180, 135), (180, 225), (270, 225), (270, 315), (0, 315),
    ]

    @Test(arguments: towardDiagonals)
    func turnedTo45DegreesKeepsThePose(start: Double, diagonal: Double) {
        var driver = ClassifierDriver()
        let upright = Gravity.upright(turnedClockwise: start)
        driver.hold(upright, for: 2)
        let before = driver.devices
        #expect(before.count == 1)
        driver.turn(from: upright, to: Gravity.upright(turnedClockwise: diagonal), over: 0.5)
        driver.hold(Gravity.upright(turnedClockwise: diagonal), for: 10)
        #expect(driver.devices == before)
    }

    @Test(arguments: NaturalOrientation.allCases)
    func hysteresisUpright(natural: NaturalOrientation) {
        var driver = ClassifierDriver(natural: natural)
        let normal = Pose.normal.deviceOrientation(natural: natural)
        let leftUp = Pose.leftUp.deviceOrientation(natural: natural)
        driver.hold(Gravity.of(.normal), for: 2)
        #expect(driver.device == normal)

        // 50° toward left-up: still normal.
        driver.turn(from: Gravity.of(.normal), to: Gravity.upright(turnedClockwise: 50), over: 0.5)
        driver.hold(Gravity.upright(turnedClockwise: 50), for: 3)
        #expect(driver.devices == [normal])
        #expect(driver.pose == .normal)

        // 70°: left-up.
        driver.turn(from: Gravity.upright(turnedClockwise: 50), to: Gravity.upright(turnedClockwise: 70), over: 0.2)
        driver.hold(Gravity.upright(turnedClockwise: 70), for: 2)
        #expect(driver.devices == [normal, leftUp])
        #expect(driver.pose == .leftUp)
    }

    /// Every pose in turn, with face up and face down between, as an orientation sequence.
    static func tour(scale: Double, rate: Double = 50) -> [DeviceOrientation] {
        var driver = ClassifierDriver(rate: rate, scale: scale)
        let stops = [
            Gravity.of(.normal), Gravity.of(.leftUp), Gravity.faceUp, Gravity.of(.bottomUp),
            Gravity.of(.rightUp), Gravity.faceDown, Gravity.of(.normal),
        ]
        driver.hold(stops[0], for: 2)
        for (from, to) in zip(stops, stops.dropFirst()) {
            driver.turn(from: from, to: to, over: 0.5)
            driver.hold(to, for: 2)
        }
        return driver.devices
    }

    static let tourExpected: [DeviceOrientation] = [
        .landscapeLeft, .portrait, .faceUp, .landscapeRight, .portraitUpsideDown, .faceDown, .landscapeLeft,
    ]

    @Test func scaleInvariance() {
        let metres = Self.tour(scale: 9.81)
        #expect(metres == Self.tourExpected)
        // Raw counts (1 g ≈ 1024) and a driver reporting in g.
        #expect(Self.tour(scale: 9.81 * 104.4) == metres)
        #expect(Self.tour(scale: 9.81 / 9.81) == metres)
    }

    @Test(arguments: [5.0, 10, 25, 100, 400])
    func classifiesAtEveryRate(rate: Double) {
        #expect(Self.tour(scale: 9.81, rate: rate) == Self.tourExpected)
    }

    @Test func nonFiniteAndZeroVectorsAreIgnored() {
        var driver = ClassifierDriver()
        let nanChanged = driver.feedRaw(Vector3(x: .nan, y: 0, z: 0))
        #expect(!nanChanged)
        #expect(driver.classifier.gravity == 0)
        driver.hold(Gravity.of(.normal), for: 2)
        let classifier = driver.classifier
        let glitches = [
            Vector3.zero, Vector3(x: .nan, y: .nan, z: .nan), Vector3(x: 0, y: -.infinity, z: 0),
            Vector3(x: .infinity, y: 0, z: 0), Vector3(x: 0, y: 0, z: .nan), Vector3(x: -0.0, y: 0, z: -0.0),
        ]
        for glitch in glitches {
            let changed = driver.feedRaw(glitch)
            #expect(!changed, "\(glitch)")
        }
        for _ in 0..<25 { driver.feedRaw(.zero) }
        #expect(driver.device == classifier.deviceOrientation)
        #expect(driver.pose == classifier.pose)
        #expect(driver.classifier.gravity == classifier.gravity)
        #expect(driver.classifier.filteredAcceleration == classifier.filteredAcceleration)
        #expect(driver.classifier.stillness == classifier.stillness)
        // And it still works.
        driver.hold(Gravity.of(.leftUp), for: 2)
        #expect(driver.devices == [.landscapeLeft, .portrait])
    }

    @Test func gapKeepsTheOutputs() {
        var driver = ClassifierDriver()
        driver.hold(Gravity.of(.normal), for: 2)
        driver.time += 5
        let afterGap = driver.step(Gravity.of(.leftUp))
        #expect(!afterGap)
        #expect(driver.device == .landscapeLeft)
        #expect(driver.pose == .normal)
        driver.hold(Gravity.of(.leftUp), for: 2)
        #expect(driver.devices == [.landscapeLeft, .portrait])
    }

    @Test func timeGoingBackwardsKeepsTheOutputs() {
        var driver = ClassifierDriver()
        driver.hold(Gravity.of(.normal), for: 10)
        // The clock restarts: the outputs are kept, then the device is classified afresh.
        driver.time = 0
        let back = driver.step(Gravity.of(.bottomUp))
        #expect(!back)
        #expect(driver.device == .landscapeLeft)
        driver.time -= 0.3
        let backAgain = driver.step(Gravity.of(.bottomUp))
        #expect(!backAgain)
        #expect(driver.device == .landscapeLeft)
        driver.hold(Gravity.of(.bottomUp), for: 2)
        #expect(driver.devices == [.landscapeLeft, .landscapeRight])
    }

    static let pickUps: [(Pose, Vector3, DeviceOrientation, Pose)] = [
        (.normal, Gravity.faceUp, .faceUp, .leftUp),
        (.leftUp, Gravity.faceUp, .faceUp, .bottomUp),
        (.rightUp, Gravity.faceUp, .faceUp, .normal),
        (.normal, Gravity.faceUp, .faceUp, .normal),
        (.normal, Gravity.faceDown, .faceDown, .rightUp),
        (.bottomUp, Gravity.faceDown, .faceDown, .leftUp),
    ]

    @Test(arguments: pickUps)
    func pickedUpInAnotherPoseGoesStraightToIt(down: Pose, flat: Vector3, face: DeviceOrientation, up: Pose) {
        var driver = ClassifierDriver()
        driver.hold(Gravity.of(down), for: 2)
        driver.turn(from: Gravity.of(down), to: flat, over: 0.6)
        driver.hold(flat, for: 3)
        #expect(driver.device == face)
        driver.turn(from: flat, to: Gravity.of(up), over: 0.6)
        driver.hold(Gravity.of(up), for: 3)
        let expected = [down.deviceOrientation(natural: .landscape), face, up.deviceOrientation(natural: .landscape)]
        #expect(driver.devices == expected)
        #expect(driver.pose == up)
    }
}
