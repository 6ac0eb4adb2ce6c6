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

@testable import SensorDevices

/// A run of implausible readings is said once it lasted a second of sample time, and its end only when it was said.
@Suite struct ImplausibleRunTests {
    @Test func aRunIsSaidOnceAfterASecondAndItsEndWithIt() {
        var run = ImplausibleRun()
        #expect(run.read(.zero, at: 10) == nil)
        #expect(run.read(.zero, at: 10.9) == nil)
        let said = run.read(.zero, at: 11)
        #expect(said?.contains("reads 0 on every axis") == true)
        #expect(run.read(.zero, at: 20) == nil, "said once")
        let ended = run.ended()
        #expect(ended)
        let endedAgain = run.ended()
        #expect(!endedAgain, "ended once")
    }

    @Test func anotherKindOfReadingStartsAnotherRun() {
        var run = ImplausibleRun()
        _ = run.read(.zero, at: 0)
        #expect(run.read(.saturated, at: 1) == nil)
        #expect(run.read(.saturated, at: 2)?.contains("saturated") == true)
    }

    @Test func aRunNotSaidEndsUnsaid() {
        var run = ImplausibleRun()
        _ = run.read(.saturated, at: 0)
        let ended = run.ended()
        #expect(!ended)
    }
}
