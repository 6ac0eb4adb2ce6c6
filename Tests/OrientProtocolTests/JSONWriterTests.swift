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

@Suite struct JSONWriterTests {
    private static func written(_ write: (inout JSONWriter) -> Void) -> String {
        var json = JSONWriter()
        write(&json)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    @Test func stringsEscapeWhatRFC8259Requires() throws {
        var controls = ""
        for value in 0..<0x20 { controls.unicodeScalars.append(try #require(Unicode.Scalar(value))) }
        #expect(
            Self.written { $0.string(controls) }
                == #""\u0000\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b\t\n\u000b\f\r\u000e\u000f"#
                + #"\u0010\u0011\u0012\u0013\u0014\u0015\u0016\u0017\u0018\u0019\u001a\u001b\u001c\u001d\u001e\u001f""#
        )
        #expect(Self.written { $0.string(#"a "quoted" \ back/slash"#) } == #""a \"quoted\" \\ back/slash""#)
        // DEL, non-ASCII, U+2028 and characters beyond the BMP are written as their UTF-8.
        let plain = "\u{7F}é€\u{2028}😀"
        #expect(Self.written { $0.string(plain) } == "\"\(plain)\"")
        #expect(Self.written { $0.string("") } == #""""#)
    }

    @Test func writtenStringsParseBackToThemselves() throws {
        var text = ""
        for value in [0, 0x1F, 0x22, 0x2F, 0x5C, 0x7F, 0xE9, 0x2028, 0xFFFD, 0x1F600] {
            text.unicodeScalars.append(try #require(Unicode.Scalar(value)))
        }
        var json = JSONWriter()
        json.array { json in
            json.string(text)
            json.string(nil)
        }
        #expect(try JSONValue.parse(json.bytes) == .array([.string(text), .null]))
    }

    @Test func integersAreDecimal() {
        #expect(
            Self.written { $0.array([0, 7, -7, 10, 1_000, Int.max, Int.min]) }
                == "[0,7,-7,10,1000,\(Int.max),\(Int.min)]"
        )
        #expect(Self.written { $0.integer(UInt64.max) } == "18446744073709551615")
        #expect(Self.written { $0.integer(Int64.min) } == "-9223372036854775808")
    }

    @Test func numbersAreWrittenAsJSONEncoderWritesThem() {
        let numbers: [Double] = [
            0, -0.0, 1, 3723, 0.5, 0.1, 1e-5, 1e15, 1e16, 1.5e300, .leastNonzeroMagnitude, 2.0 / 3, -2.5,
        ]
        #expect(
            Self.written { $0.array(numbers) }
                == "[0,-0,1,3723,0.5,0.1,1e-05,1000000000000000,1e+16,1.5e+300,5e-324,0.6666666666666666,-2.5]"
        )
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func numbersJSONCannotHoldAreNull(number: Double) throws {
        #expect(Self.written { $0.array([number, 1]) } == "[null,1]")
    }

    @Test func membersAreSeparatedAndOptionalsNullOrLeftOut() {
        let text = Self.written { json in
            json.object { json in
                json.member("a", [[Int]]([[], [1, 2]]))
                json.member("b", String?.none)
                json.memberIfPresent("c", Int?.none)
                json.memberIfPresent("d", true)
                json.member("e", EndResult(count: 2))
            }
        }
        #expect(text == #"{"a":[[],[1,2]],"b":null,"d":true,"e":{"count":2}}"#)
    }

    @Test func aWriterCanBeReusedWithoutGrowing() {
        var json = JSONWriter(capacity: 64)
        json.object { $0.member("count", 1) }
        let capacity = json.bytes.capacity
        json.removeAll()
        json.object { $0.member("count", 22) }
        #expect(String(decoding: json.bytes, as: UTF8.self) == #"{"count":22}"#)
        #expect(json.bytes.capacity == capacity)
    }

    // Lines of PROTOCOL.md's examples, as the daemon writes them: compact, keys sorted.

    /// PROTOCOL.md's example state.
    static let state = MessageTests.state

    @Test func stateLineOfPROTOCOLmd() {
        let line = String(decoding: MessageEncoder.result(id: .number(7), Self.state), as: UTF8.self)
        #expect(
            line == #"{"id":7,"result":{"allowed":["portrait","portrait-upside-down","landscape-left","#
                + #""landscape-right"],"device":"landscape-left","generating":true,"hinge":null,"#
                + #""interface":"landscape-right","lock":null,"rotation":0,"sensor":"active","seq":42,"#
                + #""suggestion":null,"tablet_mode":null,"tablet_mode_source":null,"transform":{"#
                + #""matrix":[1,0,0,0,1,0,0,0,1],"sway":"normal","wayland":0,"xrandr":"normal"}}}"# + "\n"
        )
    }

    @Test func eventErrorAndHelloLinesOfPROTOCOLmd() {
        var state = Self.state
        state.interface = .unknown
        state.rotation = nil
        state.lock = .landscape
        state.allowed = .landscape
        state.tabletMode = true
        state.tabletModeSource = .hinge
        state.hinge = 187.5
        let event = MessageEncoder.event(OrientationEvent(name: .device, previous: "portrait", state: state))
        #expect(
            String(decoding: event, as: UTF8.self)
                == #"{"event":"device","previous":"portrait","state":{"allowed":["landscape-left","#
                + #""landscape-right"],"device":"landscape-left","generating":true,"hinge":187.5,"interface":"unknown","#
                + #""lock":["landscape-left","landscape-right"],"rotation":null,"sensor":"active","seq":42,"#
                + #""suggestion":null,"tablet_mode":true,"tablet_mode_source":"hinge","transform":null}}"# + "\n"
        )
        let error = MessageEncoder.error(id: .string("x"), ProtocolError(.notGenerating, "end without a \"begin\""))
        #expect(
            String(decoding: error, as: UTF8.self)
                == #"{"error":{"code":"not-generating","message":"end without a \"begin\""},"id":"x"}"# + "\n"
        )
        let hello = MessageEncoder.result(
            id: nil,
            HelloResult(version: "0.1.0", sensor: .init(status: .active, device: nil))
        )
        #expect(
            String(decoding: hello, as: UTF8.self)
                == #"{"id":null,"result":{"protocol":1,"sensor":{"device":null,"status":"active"},"version":"0.1.0"}}"#
                + "\n"
        )
    }

    @Test func aStatusWithANumberJSONCannotHoldIsStillAnswered() throws {
        let sensor = StatusReport.Sensor(
            status: .active,
            device: "iio:device0",
            driver: "accel_3d",
            mode: "poll",
            fellBack: false,
            rate: 10,
            scale: [.nan, 0.5, 0.5],
            offset: nil,
            matrix: nil,
            matrixSource: nil,
            location: nil,
            samplesRead: 3,
            lastError: nil
        )
        let report = StatusReport(
            version: "0.1.0",
            uptime: .infinity,
            sensor: sensor,
            clients: 1,
            generatingConnections: 1,
            generationTotal: 1,
            state: Self.state
        )
        let line = MessageEncoder.result(id: .number(1), report)
        guard case .object(let reply) = try JSONValue.parse(line.dropLast()),
            case .object(let result)? = reply["result"], case .object(let fields)? = result["sensor"]
        else {
            Issue.record("not a reply with a status: \(String(decoding: line, as: UTF8.self))")
            return
        }
        #expect(result["uptime_s"] == .null)
        #expect(fields["scale"] == .array([.null, .number(0.5), .number(0.5)]))
    }
}
