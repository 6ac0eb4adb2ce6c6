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

import IniFormat
import Testing

/// The INI lexer: what each kind of line becomes, and the numbers the callers' messages quote.
@Suite struct IniLexerTests {
    @Test func commentsAndEmptyLinesAreSkippedButCounted() {
        let text = "# a comment\n; another\n\n  \t\n[Sensor]\n   # indented\nRate=50\n"
        #expect(
            IniLexer.lines(of: text) == [
                IniLine(number: 5, text: "[Sensor]", kind: .section("Sensor")),
                IniLine(number: 7, text: "Rate=50", kind: .assignment(key: "Rate", value: "50")),
            ]
        )
    }

    @Test func whitespaceAroundNamesKeysAndValuesGoes() {
        let lines = IniLexer.lines(of: "  [ Policy ]  \n\tSupported =  landscape portrait\t\r\n")
        #expect(lines.map(\.kind) == [.section("Policy"), .assignment(key: "Supported", value: "landscape portrait")])
        #expect(lines.map(\.text) == ["[ Policy ]", "Supported =  landscape portrait"])
    }

    @Test func theValueIsEverythingAfterTheFirstEqualsSign() {
        let lines = IniLexer.lines(of: "Then=notify-send \"a=b\" # not a comment; nor this\nExec=\n")
        #expect(
            lines.map(\.kind) == [
                .assignment(key: "Then", value: "notify-send \"a=b\" # not a comment; nor this"),
                .assignment(key: "Exec", value: ""),
            ]
        )
    }

    @Test func linesThatAreNeitherASectionNorAnAssignment() {
        let lines = IniLexer.lines(of: "[Sensor\nRate\n=20\n[]\n[\n")
        #expect(
            lines.map(\.kind) == [.unclosedSection, .notAssignment, .notAssignment, .section(""), .unclosedSection]
        )
        #expect(lines.map(\.number) == [1, 2, 3, 4, 5])
        #expect(lines.map(\.text) == ["[Sensor", "Rate", "=20", "[]", "["])
    }

    @Test func anEmptyTextHasNoLinesAndALastLineNeedsNoNewline() {
        #expect(IniLexer.lines(of: "").isEmpty)
        #expect(IniLexer.lines(of: "\n\n").isEmpty)
        #expect(IniLexer.lines(of: "a=b").map(\.kind) == [.assignment(key: "a", value: "b")])
    }

    @Test func namesAreKeptAsWrittenAndRepeatsAreTheCallersToJudge() {
        let lines = IniLexer.lines(of: "[apps]\nmpv=landscape\nmpv = portrait\nsteam_app_*=landscape-right\n")
        #expect(
            lines.map(\.kind) == [
                .section("apps"), .assignment(key: "mpv", value: "landscape"),
                .assignment(key: "mpv", value: "portrait"), .assignment(key: "steam_app_*", value: "landscape-right"),
            ]
        )
    }
}
