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

import OrientProtocol
import OrientationCore
import Testing

@Suite struct RequestDecoderTests {
    private static func decode(_ text: String) -> RequestDecoder.Outcome {
        RequestDecoder.decode(Array(text.utf8))
    }

    @Test(arguments: [
        (#"{"id": 7, "method": "hello"}"#, Request(id: .number(7), method: .hello)),
        (#"{"method": "get"}"#, Request(method: .get)),
        (#"{"id": "a", "method": "begin", "params": {}}"#, Request(id: .string("a"), method: .begin)),
        (#"{"id": 1, "method": "end", "params": null}"#, Request(id: .number(1), method: .end)),
        (#"{"method": "lock", "params": {}}"#, Request(method: .lock, parameters: .lock(.current))),
        (#"{"method": "lock"}"#, Request(method: .lock, parameters: .lock(.current))),
        (
            #"{"method": "lock", "params": {"orientation": "portrait"}}"#,
            Request(method: .lock, parameters: .lock(.orientation(.portrait)))
        ),
        (
            #"{"method": "lock", "params": {"mask": "landscape"}}"#,
            Request(method: .lock, parameters: .lock(.mask(.landscape)))
        ),
        (
            #"{"method": "lock", "params": {"mask": ["portrait", "landscape-left"]}}"#,
            Request(method: .lock, parameters: .lock(.mask([.portrait, .landscapeLeft])))
        ),
        (
            #"{"method": "constrain", "params": {"mask": "all-but-upside-down"}}"#,
            Request(method: .constrain, parameters: .constrain(.allButUpsideDown))
        ),
        (
            #"{"method": "constrain", "params": {"mask": null}}"#,
            Request(method: .constrain, parameters: .constrain(nil))
        ),
        (
            #"{"method": "constrain", "params": {"mask": "landscape", "holder": "app mpv"}}"#,
            Request(method: .constrain, parameters: .constrain(.landscape, holder: "app mpv"))
        ),
        (
            #"{"method": "constrain", "params": {"holder": null, "mask": "portrait"}}"#,
            Request(method: .constrain, parameters: .constrain(.portrait))
        ),
        (#"{"method": "unlock"}"#, Request(method: .unlock)),
        (
            #"{"method": "tablet-mode", "params": {"mode": "on"}}"#,
            Request(method: .tabletMode, parameters: .tabletMode(.on))
        ),
        (
            #"{"method": "tablet-mode", "params": {"mode": "auto"}}"#,
            Request(method: .tabletMode, parameters: .tabletMode(.auto))
        ),
        (#"{"method": "status"}"#, Request(method: .status)),
    ])
    func wellFormedRequests(text: String, expected: Request) {
        #expect(Self.decode(text) == .request(expected))
    }

    @Test(arguments: [
        ("not json", ProtocolError.Code.parseError, nil as RequestID?),
        ("[1, 2]", .parseError, nil),
        ("\"hello\"", .parseError, nil),
        ("{\"method\": \"get\"", .parseError, nil),
        (#"{"id": 1.5, "method": "get"}"#, .invalidRequest, nil),
        (#"{"id": [1], "method": "get"}"#, .invalidRequest, nil),
        (#"{"id": 3}"#, .invalidRequest, .number(3)),
        (#"{"id": 3, "method": 7}"#, .invalidRequest, .number(3)),
        (#"{"id": "x", "method": "fly"}"#, .invalidRequest, .string("x")),
        (#"{"id": 4, "method": "get", "extra": true}"#, .invalidRequest, .number(4)),
        (#"{"id": 5, "method": "get", "params": [1]}"#, .invalidRequest, .number(5)),
        (#"{"id": 6, "method": "get", "params": {"x": 1}}"#, .invalidRequest, .number(6)),
        (#"{"id": 7, "method": "lock", "params": {"orientation": 1}}"#, .invalidRequest, .number(7)),
        (
            #"{"id": 8, "method": "lock", "params": {"orientation": "portrait", "mask": "all"}}"#, .invalidRequest,
            .number(8)
        ),
        (#"{"id": 9, "method": "lock", "params": {"orientation": "sideways"}}"#, .invalidOrientation, .number(9)),
        (#"{"id": 10, "method": "lock", "params": {"orientation": "unknown"}}"#, .invalidOrientation, .number(10)),
        (#"{"id": 11, "method": "lock", "params": {"mask": "diagonal"}}"#, .invalidOrientation, .number(11)),
        (#"{"id": 12, "method": "lock", "params": {"mask": []}}"#, .emptyMask, .number(12)),
        (#"{"id": 13, "method": "constrain", "params": {"mask": []}}"#, .emptyMask, .number(13)),
        (#"{"id": 14, "method": "constrain"}"#, .invalidRequest, .number(14)),
        (#"{"id": 15, "method": "constrain", "params": {"mask": [1]}}"#, .invalidRequest, .number(15)),
        (#"{"id": 16, "method": "lock", "params": {"mask": null}}"#, .invalidRequest, .number(16)),
        (#"{"id": 17, "method": "lock", "params": {"angle": 90}}"#, .invalidRequest, .number(17)),
        (#"{"id": 18, "method": "tablet-mode"}"#, .invalidRequest, .number(18)),
        (#"{"id": 19, "method": "tablet-mode", "params": {"mode": "yes"}}"#, .invalidRequest, .number(19)),
        (#"{"id": 191, "method": "constrain", "params": {"mask": "all", "holder": 7}}"#, .invalidRequest, .number(191)),
        (
            #"{"id": 192, "method": "constrain", "params": {"mask": "all", "holder": ""}}"#, .invalidRequest,
            .number(192)
        ),
        (
            #"{"id": 193, "method": "constrain", "params": {"mask": "all", "holder": ""#
                + String(repeating: "x", count: Request.holderLimit + 1) + #""}}"#, .invalidRequest, .number(193)
        ),
        (#"{"id": 194, "method": "constrain", "params": {"mask": "all", "for": "x"}}"#, .invalidRequest, .number(194)),
        (#"{"id": 20, "method": "tablet-mode", "params": {"mode": true}}"#, .invalidRequest, .number(20)),
        (#"{"id": 21, "method": "tablet-mode", "params": {"mode": "on", "x": 1}}"#, .invalidRequest, .number(21)),
    ])
    func badRequestsGetTheirDocumentedCode(text: String, code: ProtocolError.Code, id: RequestID?) throws {
        guard case .failure(let echoed, let error) = Self.decode(text) else {
            Issue.record("accepted: \(text)")
            return
        }
        #expect(error.code == code, "\(error)")
        #expect(echoed == id)
        #expect(!error.message.isEmpty)
    }

    @Test func invalidUTF8IsAParseError() {
        let bytes: [UInt8] = Array(#"{"method": ""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)
        guard case .failure(nil, let error) = RequestDecoder.decode(bytes) else {
            Issue.record("accepted invalid UTF-8")
            return
        }
        #expect(error.code == .parseError)
    }

    @Test func deepNestingIsRefusedWithoutCrashing() {
        let text = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        guard case .failure(_, let error) = Self.decode(text) else {
            Issue.record("accepted")
            return
        }
        #expect(error.code == .parseError)
    }

    @Test(arguments: [Request.Method.lock, .unlock, .constrain, .tabletMode])
    func onlyLockUnlockConstrainAndTabletModeNeedAController(method: Request.Method) {
        #expect(method.needsController)
        #expect(Request.Method.allCases.filter(\.needsController).count == 4)
    }

    /// What a client writes, the daemon reads back as the same request.
    @Test(arguments: [
        Request(id: .number(1), method: .hello),
        Request(id: .string("x\"y"), method: .lock, parameters: .lock(.orientation(.portraitUpsideDown))),
        Request(method: .lock, parameters: .lock(.mask(.landscape))),
        Request(method: .lock, parameters: .lock(.current)),
        Request(id: .number(-3), method: .constrain, parameters: .constrain(nil)),
        Request(method: .constrain, parameters: .constrain([.portrait, .landscapeRight])),
        Request(method: .constrain, parameters: .constrain(.landscape, holder: "mpv \"film\".mkv")),
        Request(id: .number(2), method: .tabletMode, parameters: .tabletMode(.off)),
    ])
    func clientLinesRoundTrip(request: Request) {
        let line = request.line
        #expect(line.hasSuffix("\n"))
        #expect(Self.decode(String(line.dropLast())) == .request(request))
    }
}
