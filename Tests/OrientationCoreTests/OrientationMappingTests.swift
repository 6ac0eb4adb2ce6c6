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

/// The tables of ORIENTATION.md, written out from the document.
@Suite struct OrientationMappingTests {
    // MARK: The seven device orientations (pose × natural orientation → device orientation, rotation)

    static let poseTable: [(Pose, NaturalOrientation, DeviceOrientation, Int)] = [
        (.normal, .landscape, .landscapeLeft, 0),
        (.leftUp, .landscape, .portrait, 90),
        (.bottomUp, .landscape, .landscapeRight, 180),
        (.rightUp, .landscape, .portraitUpsideDown, 270),
        (.normal, .portrait, .portrait, 0),
        (.leftUp, .portrait, .landscapeRight, 90),
        (.bottomUp, .portrait, .portraitUpsideDown, 180),
        (.rightUp, .portrait, .landscapeLeft, 270),
    ]

    @Test(arguments: poseTable)
    func poseNamesItsDeviceOrientation(
        pose: Pose,
        natural: NaturalOrientation,
        device: DeviceOrientation,
        degrees: Int
    ) {
        #expect(pose.deviceOrientation(natural: natural) == device)
        #expect(pose.panelRotation.degrees == degrees)
        #expect(device.pose(natural: natural) == pose)
        #expect(Pose(panelRotation: pose.panelRotation) == pose)
    }

    @Test(arguments: NaturalOrientation.allCases)
    func flatAndUnknownDeviceOrientationsHaveNoPose(natural: NaturalOrientation) {
        #expect(DeviceOrientation.faceUp.pose(natural: natural) == nil)
        #expect(DeviceOrientation.faceDown.pose(natural: natural) == nil)
        #expect(DeviceOrientation.unknown.pose(natural: natural) == nil)
    }

    // MARK: The landscape inversion (device → interface)

    static let inversionTable: [(DeviceOrientation, InterfaceOrientation?)] = [
        (.portrait, .portrait),
        (.portraitUpsideDown, .portraitUpsideDown),
        (.landscapeLeft, .landscapeRight),
        (.landscapeRight, .landscapeLeft),
        (.faceUp, nil),
        (.faceDown, nil),
        (.unknown, nil),
    ]

    @Test(arguments: inversionTable)
    func deviceOrientationAsksForInterfaceOrientation(device: DeviceOrientation, interface: InterfaceOrientation?) {
        #expect(device.requestedInterfaceOrientation == interface)
    }

    @Test func inversionTableCoversEveryDeviceOrientation() {
        #expect(Set(Self.inversionTable.map(\.0)) == Set(DeviceOrientation.allCases))
    }

    // MARK: Interface orientation → panel rotation

    static let interfaceRotationTable: [(InterfaceOrientation, NaturalOrientation, Int?)] = [
        // Laptop: landscape-right is the normal pose (device landscape-left).
        (.landscapeRight, .landscape, 0),
        (.portrait, .landscape, 90),
        (.landscapeLeft, .landscape, 180),
        (.portraitUpsideDown, .landscape, 270),
        (.unknown, .landscape, nil),
        // Phone: portrait is the normal pose.
        (.portrait, .portrait, 0),
        (.landscapeLeft, .portrait, 90),
        (.portraitUpsideDown, .portrait, 180),
        (.landscapeRight, .portrait, 270),
        (.unknown, .portrait, nil),
    ]

    @Test(arguments: interfaceRotationTable)
    func interfaceOrientationGivesPanelRotation(
        interface: InterfaceOrientation,
        natural: NaturalOrientation,
        degrees: Int?
    ) {
        #expect(interface.panelRotation(natural: natural)?.degrees == degrees)
    }

    @Test(arguments: [(NaturalOrientation.landscape, InterfaceOrientation.landscapeRight), (.portrait, .portrait)])
    func naturalInterfaceOrientationIsThatOfTheNormalPose(natural: NaturalOrientation, interface: InterfaceOrientation)
    {
        #expect(InterfaceOrientation.natural(natural) == interface)
    }

    // MARK: Display transforms

    static let transformTable: [(Int, Int, String, String, [Int])] = [
        (0, 0, "normal", "normal", [1, 0, 0, 0, 1, 0, 0, 0, 1]),
        (90, 1, "270", "left", [0, -1, 1, 1, 0, 0, 0, 0, 1]),
        (180, 2, "180", "inverted", [-1, 0, 1, 0, -1, 1, 0, 0, 1]),
        (270, 3, "90", "right", [0, 1, 0, -1, 0, 1, 0, 0, 1]),
    ]

    @Test(arguments: transformTable)
    func rotationCarriesDisplayTransforms(
        degrees: Int,
        wayland: Int,
        sway: String,
        xrandr: String,
        matrix: [Int]
    ) throws {
        let rotation = try #require(PanelRotation(degrees: degrees))
        #expect(rotation.degrees == degrees)
        #expect(rotation.waylandTransform == wayland)
        #expect(rotation.swayTransform == sway)
        #expect(rotation.xrandrRotation == xrandr)
        #expect(rotation.coordinateTransformationMatrix == matrix)
    }

    @Test(arguments: [(0, 0, 0), (90, 0, 90), (90, 90, 180), (90, 270, 0), (180, 270, 90), (270, 270, 180)])
    func offsetsAddModulo360(degrees: Int, offset: Int, sum: Int) throws {
        let rotation = try #require(PanelRotation(degrees: degrees))
        let panelOffset = try #require(PanelRotation(degrees: offset))
        #expect(rotation.adding(panelOffset).degrees == sum)
        #expect(panelOffset.adding(rotation).degrees == sum)
    }

    @Test(arguments: [-90, 45, 360, 1])
    func onlyQuarterTurnsAreRotations(degrees: Int) {
        #expect(PanelRotation(degrees: degrees) == nil)
    }

    // MARK: Wire names

    static let deviceNames: [(DeviceOrientation, String)] = [
        (.unknown, "unknown"),
        (.portrait, "portrait"),
        (.portraitUpsideDown, "portrait-upside-down"),
        (.landscapeLeft, "landscape-left"),
        (.landscapeRight, "landscape-right"),
        (.faceUp, "face-up"),
        (.faceDown, "face-down"),
    ]

    @Test(arguments: deviceNames)
    func deviceOrientationWireName(orientation: DeviceOrientation, name: String) {
        #expect(orientation.wireName == name)
        #expect(DeviceOrientation(wireName: name) == orientation)
        #expect(String(describing: orientation) == name)
    }

    static let interfaceNames: [(InterfaceOrientation, String)] = [
        (.unknown, "unknown"),
        (.portrait, "portrait"),
        (.portraitUpsideDown, "portrait-upside-down"),
        (.landscapeLeft, "landscape-left"),
        (.landscapeRight, "landscape-right"),
    ]

    @Test(arguments: interfaceNames)
    func interfaceOrientationWireName(orientation: InterfaceOrientation, name: String) {
        #expect(orientation.wireName == name)
        #expect(InterfaceOrientation(wireName: name) == orientation)
    }

    static let poseNames: [(Pose, String)] = [
        (.normal, "normal"), (.leftUp, "left-up"), (.bottomUp, "bottom-up"), (.rightUp, "right-up"),
    ]

    @Test(arguments: poseNames)
    func poseWireName(pose: Pose, name: String) {
        #expect(pose.wireName == name)
        #expect(Pose(wireName: name) == pose)
    }

    @Test(arguments: [(NaturalOrientation.landscape, "landscape"), (.portrait, "portrait")])
    func naturalOrientationWireName(natural: NaturalOrientation, name: String) {
        #expect(natural.wireName == name)
        #expect(NaturalOrientation(wireName: name) == natural)
    }

    @Test func everyCaseHasAWireName() {
        #expect(Set(Self.deviceNames.map(\.0)) == Set(DeviceOrientation.allCases))
        #expect(Set(Self.interfaceNames.map(\.0)) == Set(InterfaceOrientation.allCases))
        #expect(Set(Self.poseNames.map(\.0)) == Set(Pose.allCases))
    }

    @Test(arguments: [
        "", "Portrait", "landscapeLeft", "landscape_left", " portrait", "portrait ", "upside-down", "flat",
    ])
    func unknownNamesParseToNil(name: String) {
        #expect(DeviceOrientation(wireName: name) == nil)
        #expect(InterfaceOrientation(wireName: name) == nil)
        #expect(Pose(wireName: name) == nil)
        #expect(NaturalOrientation(wireName: name) == nil)
    }

    @Test(arguments: ["face-up", "face-down"])
    func flatNamesAreDeviceOrientationsOnly(name: String) {
        #expect(DeviceOrientation(wireName: name) != nil)
        #expect(InterfaceOrientation(wireName: name) == nil)
    }
}
