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

import OrientClient
import OrientProtocol
import OrientationCore
import OrientdTestSupport
import Testing

@Suite("orientctl's text: state lines, --exec variables, lock arguments")
struct StateTextTests {
    @Test(
        "state lines",
        arguments: [
            (
                Fixture.state(), "device=landscape-left interface=landscape-right rotation=0 lock=none"
            ),
            (
                Fixture.state(device: .faceUp, interface: .portrait, lock: .landscape),
                "device=face-up interface=portrait rotation=90 lock=landscape-left,landscape-right"
            ),
            (
                Fixture.state(device: .unknown, interface: .unknown, sensor: .stopped),
                "device=unknown interface=unknown rotation=none lock=none"
            ),
            (
                Fixture.state(device: .portraitUpsideDown, interface: .portraitUpsideDown, lock: .all),
                "device=portrait-upside-down interface=portrait-upside-down rotation=270 "
                    + "lock=portrait,portrait-upside-down,landscape-left,landscape-right"
            ),
        ]
    )
    func stateLine(state: OrientationState, line: String) {
        #expect(state.stateLine == line)
        #expect(state.orientationLine + " lock=" + line.split(separator: "=").last! == line)
    }

    @Test(
        "a tablet-mode switch adds tablet_mode at the end; without one the line ends with the lock",
        arguments: [true, false]
    )
    func tabletModeLine(tablet: Bool) {
        var state = Fixture.state(device: .portrait, interface: .landscapeRight)
        state.tabletMode = tablet
        #expect(
            state.stateLine == "device=portrait interface=landscape-right rotation=0 lock=none tablet_mode=\(tablet)"
        )
        #expect(state.orientationLine == "device=portrait interface=landscape-right rotation=0")
    }

    @Test("the hinge angle comes before tablet_mode, with one decimal, only while it is known")
    func hingeLine() {
        var state = Fixture.state(device: .portrait, interface: .landscapeRight)
        state.tabletMode = false
        state.hinge = 90
        #expect(state.stateLine.hasSuffix("lock=none hinge=90.0 tablet_mode=false"))
        state.hinge = 187.46
        #expect(state.stateLine.hasSuffix("lock=none hinge=187.5 tablet_mode=false"))
        state.hinge = nil
        #expect(state.stateLine.hasSuffix("lock=none tablet_mode=false"))
    }

    @Test("the watch line per event is CLI.md's")
    func orientationLine() {
        let state = Fixture.state(device: .portrait, interface: .portrait)
        #expect(state.orientationLine == "device=portrait interface=portrait rotation=90")
    }

    /// ORIENTATION.md, display transforms.
    @Test(
        "--exec variables for each rotation",
        arguments: [
            (InterfaceOrientation.landscapeRight, "0", "0", "normal", "normal", "1 0 0 0 1 0 0 0 1"),
            (.portrait, "90", "1", "270", "left", "0 -1 1 1 0 0 0 0 1"),
            (.landscapeLeft, "180", "2", "180", "inverted", "-1 0 1 0 -1 1 0 0 1"),
            (.portraitUpsideDown, "270", "3", "90", "right", "0 1 0 -1 0 1 0 0 1"),
        ]
    )
    func hookEnvironment(
        interface: InterfaceOrientation,
        rotation: String,
        wayland: String,
        sway: String,
        xrandr: String,
        matrix: String
    ) throws {
        let state = Fixture.state(device: .faceUp, interface: interface)
        let variables = try #require(state.hookEnvironment)
        #expect(
            variables.map(\.name) == [
                "ORIENTD_DEVICE", "ORIENTD_INTERFACE", "ORIENTD_ROTATION", "ORIENTD_WAYLAND_TRANSFORM",
                "ORIENTD_SWAY_TRANSFORM", "ORIENTD_XRANDR", "ORIENTD_MATRIX",
            ]
        )
        #expect(variables.map(\.value) == ["face-up", interface.wireName, rotation, wayland, sway, xrandr, matrix])
    }

    @Test("a panel offset turns the transform variables, not the interface's rotation")
    func hookEnvironmentWithPanelOffset() throws {
        let state = Fixture.state(device: .portrait, interface: .portrait)
        let variables = try #require(state.hookEnvironment(panelOffset: .degrees270))
        #expect(
            variables.map(\.value) == ["portrait", "portrait", "90", "0", "normal", "normal", "1 0 0 0 1 0 0 0 1"]
        )
        #expect(state.hookEnvironment(panelOffset: .degrees0)?.map(\.value) == state.hookEnvironment?.map(\.value))
    }

    @Test("no --exec run while the interface orientation is unknown")
    func noHookWhileUnknown() {
        #expect(Fixture.state(device: .unknown, interface: .unknown).hookEnvironment == nil)
    }

    @Test(
        "lock arguments",
        arguments: [
            ("portrait", Request.LockTarget.orientation(.portrait)),
            ("landscape-right", .orientation(.landscapeRight)),
            ("landscape", .mask(.landscape)),
            ("all-but-upside-down", .mask(.allButUpsideDown)),
            ("portrait,landscape-left", .mask([.portrait, .landscapeLeft])),
        ]
    )
    func lockArgument(text: String, target: Request.LockTarget) throws {
        #expect(try Request.LockTarget(argument: text) == target)
    }

    @Test("lock arguments that are not orientations or masks", arguments: ["sideways", "unknown", "", "portrait,up"])
    func badLockArgument(text: String) {
        #expect(throws: UnknownMaskNameError.self) { try Request.LockTarget(argument: text) }
    }
}
