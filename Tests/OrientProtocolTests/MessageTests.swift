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
import Testing

@Suite struct MessageTests {
    static let state = OrientationState(
        device: .landscapeLeft,
        interface: .landscapeRight,
        rotation: .degrees0,
        allowed: .all,
        lock: nil,
        sensor: .active,
        generating: true,
        seq: 42
    )

    private static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func stateHasEveryFieldOfPROTOCOLmd() throws {
        let line = Self.text(MessageEncoder.result(id: .number(7), Self.state))
        #expect(line.hasSuffix("}\n"))
        #expect(!line.dropLast().contains("\n"))
        for fragment in [
            #""id":7"#, #""device":"landscape-left""#, #""interface":"landscape-right""#, #""rotation":0"#,
            #""wayland":0"#, #""sway":"normal""#, #""xrandr":"normal""#, #""matrix":[1,0,0,0,1,0,0,0,1]"#,
            #""allowed":["portrait","portrait-upside-down","landscape-left","landscape-right"]"#,
            #""lock":null"#, #""sensor":"active""#, #""generating":true"#, #""seq":42"#, #""tablet_mode":null"#,
            #""suggestion":null"#,
        ] {
            #expect(line.contains(fragment), "\(fragment) in \(line)")
        }
    }

    @Test func unknownInterfaceHasNullRotationAndTransform() {
        var state = Self.state
        state.interface = .unknown
        state.rotation = nil
        let line = Self.text(MessageEncoder.result(id: nil, state))
        #expect(line.contains(#""rotation":null"#))
        #expect(line.contains(#""transform":null"#))
        #expect(line.contains(#""id":null"#))
    }

    @Test(arguments: PanelRotation.allCases)
    func statesRoundTripThroughTheClientDecoder(rotation: PanelRotation) throws {
        var state = Self.state
        state.rotation = rotation
        state.lock = .landscape
        state.allowed = .landscape
        let line = MessageEncoder.result(id: .string("r"), state)
        guard case .result(let id, let body) = try ServerMessage.decode(Array(line.dropLast())) else {
            Issue.record("not a result")
            return
        }
        #expect(id == .string("r"))
        #expect(try ServerMessage.result(OrientationState.self, from: body) == state)
    }

    @Test(arguments: [InterfaceOrientation.portrait, .landscapeLeft, nil] as [InterfaceOrientation?])
    func suggestionIsEncodedAndRoundTrips(suggestion: InterfaceOrientation?) throws {
        var state = Self.state
        state.lock = InterfaceOrientationMask(.landscapeRight)
        state.suggestion = suggestion
        let event = OrientationEvent(name: .suggestion, previous: suggestion == nil ? "portrait" : nil, state: state)
        let line = MessageEncoder.event(event)
        let text = Self.text(line)
        #expect(text.contains(#""suggestion":\#(suggestion.map { "\"\($0.wireName)\"" } ?? "null")"#))
        #expect(text.hasPrefix(#"{"event":"suggestion","previous":\#(suggestion == nil ? "\"portrait\"" : "null")"#))
        guard case .event(let decoded) = try ServerMessage.decode(Array(line.dropLast())) else {
            Issue.record("not an event")
            return
        }
        #expect(decoded == event)
    }

    @Test func aStateWithoutSuggestionDecodesAsNone() throws {
        let line =
            #"{"id":1,"result":{"device":"portrait","interface":"portrait","rotation":90,"allowed":["portrait"],"lock":null,"sensor":"active","generating":true,"seq":3}}"#
        guard case .result(_, let body) = try ServerMessage.decode(Array(line.utf8)) else {
            Issue.record("not a result")
            return
        }
        #expect(try ServerMessage.result(OrientationState.self, from: body).suggestion == nil)
        let bad = Array(line.dropLast(2).utf8) + Array(#","suggestion":"unknown"}}"#.utf8)
        #expect(throws: (any Error).self) { try ServerMessage.result(OrientationState.self, from: bad) }
    }

    @Test(arguments: [true, false, nil] as [Bool?])
    func tabletModeIsEncodedAndRoundTrips(tabletMode: Bool?) throws {
        var state = Self.state
        state.tabletMode = tabletMode
        let line = MessageEncoder.result(id: nil, state)
        #expect(Self.text(line).contains(#""tablet_mode":\#(tabletMode.map(String.init) ?? "null")"#))
        guard case .result(_, let body) = try ServerMessage.decode(Array(line.dropLast())) else {
            Issue.record("not a result")
            return
        }
        #expect(try ServerMessage.result(OrientationState.self, from: body).tabletMode == tabletMode)
    }

    @Test func theHingeAndTheSourceOfTabletModeRoundTrip() throws {
        var state = Self.state
        state.tabletMode = false
        state.tabletModeSource = .switch
        state.hinge = 95.5
        let line = MessageEncoder.result(id: nil, state)
        #expect(Self.text(line).contains(#""hinge":95.5,"#))
        #expect(Self.text(line).contains(#""tablet_mode_source":"switch","#))
        guard case .result(_, let body) = try ServerMessage.decode(Array(line.dropLast())) else {
            Issue.record("not a result")
            return
        }
        #expect(try ServerMessage.result(OrientationState.self, from: body) == state)
    }

    @Test func aStateWithoutTabletModeDecodesAsUnknown() throws {
        let line = Self.text(MessageEncoder.result(id: nil, Self.state))
            .replacing(#","tablet_mode":null"#, with: "")
            .replacing(#","tablet_mode_source":null"#, with: "")
            .replacing(#","hinge":null"#, with: "")
        #expect(!line.contains("tablet_mode") && !line.contains("hinge"), "as from a daemon older than the fields")
        guard case .result(_, let body) = try ServerMessage.decode(Array(line.utf8.dropLast())) else {
            Issue.record("not a result")
            return
        }
        #expect(try ServerMessage.result(OrientationState.self, from: body) == Self.state)
    }

    @Test func eventsCarryNamePreviousAndState() throws {
        let event = OrientationEvent(name: .device, previous: "portrait", state: Self.state)
        let line = MessageEncoder.event(event)
        #expect(Self.text(line).contains(#""event":"device""#))
        #expect(Self.text(line).contains(#""previous":"portrait""#))
        #expect(try ServerMessage.decode(Array(line.dropLast())) == .event(event))
    }

    /// `tablet-mode`'s `previous` is the old `tablet_mode`: true, false or null, always present.
    @Test(arguments: [true, false, nil] as [Bool?])
    func tabletModeEventsCarryTheOldValue(previous: Bool?) throws {
        let event = OrientationEvent(tabletModeChangedFrom: previous, state: Self.state)
        let line = MessageEncoder.event(event)
        #expect(Self.text(line).contains(#""event":"tablet-mode""#))
        #expect(Self.text(line).contains(#""previous":\#(previous.map { "\($0)" } ?? "null")"#), "\(Self.text(line))")
        let decoded = try ServerMessage.decode(Array(line.dropLast()))
        #expect(decoded == .event(event))
        guard case .event(let back) = decoded else { return }
        #expect(back.name == .tabletMode && back.previousTabletMode == previous && back.previous == nil)
    }

    @Test func anAllowedEventHasNoPrevious() {
        let line = MessageEncoder.event(OrientationEvent(name: .allowed, state: Self.state))
        #expect(!Self.text(line).contains("previous"), "\(Self.text(line))")
    }

    @Test(arguments: ProtocolError.Code.allCases)
    func errorsCarryTheirCode(code: ProtocolError.Code) throws {
        let error = ProtocolError(code, "what \"went\" wrong")
        let line = MessageEncoder.error(id: .number(3), error)
        #expect(Self.text(line).contains(#""code":"\#(code.rawValue)""#))
        #expect(try ServerMessage.decode(Array(line.dropLast())) == .error(id: .number(3), error))
    }

    @Test func helloHasProtocolVersionAndSensor() {
        let line = Self.text(
            MessageEncoder.result(id: nil, HelloResult(version: "0.1.0", sensor: .init(status: .absent, device: nil)))
        )
        #expect(line.contains(#""protocol":1"#))
        #expect(line.contains(#""device":null"#))
        #expect(line.contains(#""status":"absent""#))
    }
}
