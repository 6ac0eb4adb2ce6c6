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

import Testing

@testable import OrientDaemon

/// polkit's answers kept per bus client: one question per client, however many claims it makes; asked again after
/// polkit's `Changed`, or for a new client; the claims of a client that leaves are dropped.
@Suite struct PolkitAnswersTests {
    @Test func oneQuestionPerClientAndItsAnswerKept() {
        var answers = PolkitAnswers<String>()
        #expect(answers.claim(by: ":1.7", "accelerometer") == .ask)
        #expect(answers.claim(by: ":1.7", "light") == .wait, "the same client's second claim waits for the question")
        #expect(answers.claim(by: ":1.8", "light") == .ask, "another client is asked about")
        #expect(answers.answered(":1.7", authorized: true) == ["accelerometer", "light"])
        #expect(answers.claim(by: ":1.7", "proximity") == .answer(true), "known: not asked again")
        #expect(answers.answered(":1.8", authorized: false) == ["light"])
        #expect(answers.claim(by: ":1.8", "light") == .answer(false))
        #expect(answers.count == 2)
    }

    @Test func polkitsChangeAsksAgain() {
        var answers = PolkitAnswers<String>()
        _ = answers.claim(by: ":1.7", "light")
        _ = answers.answered(":1.7", authorized: false)
        answers.changed()
        #expect(answers.claim(by: ":1.7", "light") == .ask)
    }

    @Test func noAnswerIsNotKept() {
        var answers = PolkitAnswers<String>()
        _ = answers.claim(by: ":1.7", "light")
        #expect(answers.answered(":1.7", authorized: nil) == ["light"])
        #expect(answers.claim(by: ":1.7", "light") == .ask, "polkit may run by the next claim")
    }

    @Test func aClientThatLeavesTakesItsClaimsAndAnswer() {
        var answers = PolkitAnswers<String>()
        _ = answers.claim(by: ":1.7", "light")
        _ = answers.answered(":1.7", authorized: true)
        _ = answers.claim(by: ":1.9", "accelerometer")
        #expect(answers.left(":1.9") == ["accelerometer"])
        #expect(answers.answered(":1.9", authorized: true).isEmpty, "a late answer finds no claim")
        #expect(answers.left(":1.7").isEmpty)
        #expect(answers.count == 0, "a late answer for a client gone is not kept")
        #expect(answers.takeAllWaiting().isEmpty)
    }

    @Test func theAnswersKeptAreBounded() {
        var answers = PolkitAnswers<Int>()
        for client in 0..<PolkitAnswers<Int>.limit + 5 {
            _ = answers.claim(by: ":1.\(client)", client)
            _ = answers.answered(":1.\(client)", authorized: true)
        }
        #expect(answers.count <= PolkitAnswers<Int>.limit)
    }
}
