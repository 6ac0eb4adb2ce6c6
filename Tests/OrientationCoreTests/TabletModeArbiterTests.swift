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

@Suite struct TabletModeArbiterTests {
    /// One row: the sources set (nil: not set), the decision expected.
    struct Row: Sendable, CustomTestStringConvertible {
        var manual: Bool?
        var switchPosition: Bool?
        var hinge: Bool?
        var expected: TabletModeArbiter.Decision
        var testDescription: String {
            "manual \(manual as Any), switch \(switchPosition as Any), hinge \(hinge as Any)"
        }
    }

    static let rows: [Row] = [
        Row(manual: nil, switchPosition: nil, hinge: nil, expected: .unknown),
        Row(manual: nil, switchPosition: nil, hinge: true, expected: .decided(true, by: .hinge)),
        Row(manual: nil, switchPosition: false, hinge: true, expected: .decided(false, by: .switch)),
        Row(manual: nil, switchPosition: true, hinge: nil, expected: .decided(true, by: .switch)),
        Row(manual: false, switchPosition: true, hinge: true, expected: .decided(false, by: .manual)),
        Row(manual: true, switchPosition: nil, hinge: false, expected: .decided(true, by: .manual)),
        Row(manual: true, switchPosition: false, hinge: nil, expected: .decided(true, by: .manual)),
    ]

    @Test(arguments: rows) func theStrongestSourceDecides(_ row: Row) {
        var arbiter = TabletModeArbiter()
        _ = arbiter.setHinge(row.hinge)
        _ = arbiter.setSwitch(row.switchPosition)
        _ = arbiter.setManual(row.manual)
        #expect(arbiter.decision == row.expected)
        switch row.expected {
        case .unknown:
            #expect(arbiter.tabletMode == nil && arbiter.source == nil)
        case .decided(let value, let source):
            #expect(arbiter.tabletMode == value && arbiter.source == source)
        }
    }

    @Test func aChangeReportsTheValueBeforeOnlyWhenTheModeChanges() {
        var arbiter = TabletModeArbiter()
        // Unknown → tablet: the value before was unknown.
        let result1 = arbiter.setHinge(true)
        #expect(result1 == .some(nil))
        // The switch agrees: no change of mode, although the source changes.
        let result2 = arbiter.setSwitch(true)
        #expect(result2 == nil)
        #expect(arbiter.source == .switch)
        // The manual setting says laptop: tablet before.
        let result3 = arbiter.setManual(false)
        #expect(result3 == .some(true))
        // The hinge changes under the manual setting: nothing for clients.
        let result4 = arbiter.setHinge(false)
        #expect(result4 == nil)
        // Back to auto: the switch says tablet again.
        let result5 = arbiter.setManual(nil)
        #expect(result5 == .some(false))
        #expect(arbiter.decision == .decided(true, by: .switch))
        // The switch goes: the hinge's laptop decides.
        let result6 = arbiter.setSwitch(nil)
        #expect(result6 == .some(true))
        #expect(arbiter.decision == .decided(false, by: .hinge))
        // The base goes: nothing tells.
        let result7 = arbiter.setHinge(nil)
        #expect(result7 == .some(false))
        #expect(arbiter.decision == .unknown)
    }

    @Test func implausibleBaseReadingsAreIgnoredAndSaidOnceAfterTwoSeconds() {
        var arbiter = TabletModeArbiter()
        let result8 = arbiter.judgeBase(magnitude: 1.0, at: 0)
        #expect(result8 == .usable)
        let result9 = arbiter.judgeBase(magnitude: 0.1, at: 1)
        #expect(result9 == .ignored)
        let result10 = arbiter.judgeBase(magnitude: 2.0, at: 2.9)
        #expect(result10 == .ignored)
        let result11 = arbiter.judgeBase(magnitude: 0.0, at: 3.0)
        #expect(result11 == .ignoredAndSayOnce)
        let result12 = arbiter.judgeBase(magnitude: 0.0, at: 9.0)
        #expect(result12 == .ignored)
        // A plausible reading starts the count again, but what was said is not said twice.
        let result13 = arbiter.judgeBase(magnitude: 0.9, at: 10)
        #expect(result13 == .usable)
        let result14 = arbiter.judgeBase(magnitude: 0.0, at: 11)
        #expect(result14 == .ignored)
        let result15 = arbiter.judgeBase(magnitude: 0.0, at: 14)
        #expect(result15 == .ignored)
    }

    @Test func plausibleReadingsBetweenHalfAndOneAndAHalfG() {
        var arbiter = TabletModeArbiter()
        let result16 = arbiter.judgeBase(magnitude: 0.5, at: 0)
        #expect(result16 == .usable)
        let result17 = arbiter.judgeBase(magnitude: 1.5, at: 0)
        #expect(result17 == .usable)
        let result18 = arbiter.judgeBase(magnitude: 0.49, at: 0)
        #expect(result18 == .ignored)
        let result19 = arbiter.judgeBase(magnitude: 1.51, at: 0)
        #expect(result19 == .ignored)
    }

    @Test func nothingTellsIsSaidOnceAndOnlyWhenRotationFollowsTabletMode() {
        var arbiter = TabletModeArbiter()
        let result20 = arbiter.shouldSayNothingTells(rotationFollowsTabletMode: false)
        #expect(!result20)
        let result21 = arbiter.shouldSayNothingTells(rotationFollowsTabletMode: true)
        #expect(result21)
        let result22 = arbiter.shouldSayNothingTells(rotationFollowsTabletMode: true)
        #expect(!result22)

        var decided = TabletModeArbiter()
        _ = decided.setSwitch(false)
        let result23 = decided.shouldSayNothingTells(rotationFollowsTabletMode: true)
        #expect(!result23)
        _ = decided.setSwitch(nil)
        let result24 = decided.shouldSayNothingTells(rotationFollowsTabletMode: true)
        #expect(result24)
    }
}
