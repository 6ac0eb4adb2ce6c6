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

import EngineFakes
import OrientProtocol
import OrientationCore
import Testing

@testable import OrientDaemon

/// The engine's rotation suggestion: its event comes last in its change, its timer is set when it
/// appears and turned off when it goes, and the end of that time withdraws it.
@Suite struct EngineSuggestionTests {
    let watcher = ClientID(1)

    @Test func aSuggestionAsksForItsTimeAndGoesWhenItRunsOut() throws {
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(stateDirectory: directory)
            rig.request(#"{"id":1,"method":"begin"}"#, from: watcher)
            rig.hold(EngineRig.upright)
            _ = rig.takeEvents()
            rig.request(#"{"id":2,"method":"lock","params":{}}"#, from: watcher)
            #expect(rig.suggestionTimings == 0)

            rig.hold(EngineRig.leftUp)
            let turned = rig.takeEvents()
            #expect(turned.map(\.name) == [.device, .suggestion])
            #expect(turned.last?.previous == nil)
            #expect(turned.last?.state.suggestion == .portrait)
            #expect(rig.engine.state.interface == .landscapeRight)
            #expect(rig.suggestionSeconds == 10, "SuggestionSec='s default")

            rig.scheduler.advance(by: 10)
            let expired = rig.takeEvents()
            #expect(expired.map(\.name) == [.suggestion])
            #expect(expired.first?.previous == "portrait")
            #expect(expired.first?.state.suggestion == nil)
            #expect(rig.suggestionSeconds == nil, "the time no longer runs")
            // A late firing finds nothing to withdraw.
            rig.engine.suggestionTimedOut()
            #expect(rig.takeEvents().isEmpty)
        }
    }

    @Test func nobodyGeneratingMeansNoSuggestionAndNoTime() throws {
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(stateDirectory: directory)
            rig.request(#"{"id":1,"method":"begin"}"#, from: watcher)
            rig.hold(EngineRig.upright)
            rig.request(#"{"id":2,"method":"lock","params":{}}"#, from: watcher)
            rig.hold(EngineRig.leftUp)
            #expect(rig.engine.state.suggestion == .portrait)
            let timings = rig.suggestionTimings
            rig.request(#"{"id":3,"method":"end"}"#, from: watcher)
            #expect(rig.engine.state.suggestion == nil)
            #expect(rig.suggestionSeconds == nil)
            #expect(rig.suggestionTimings == timings + 1)
        }
    }

    @Test func aReloadedZeroWithdrawsItAndTheNextValueApplies() throws {
        try withTemporaryDirectory { directory in
            let rig = try EngineRig(stateDirectory: directory)
            rig.request(#"{"id":1,"method":"begin"}"#, from: watcher)
            rig.hold(EngineRig.upright)
            rig.request(#"{"id":2,"method":"lock","params":{}}"#, from: watcher)
            rig.hold(EngineRig.leftUp)
            _ = rig.takeEvents()
            var settings = rig.engine.settings
            settings.suggestionSeconds = 0
            try rig.engine.reconfigure(settings)
            let off = rig.takeEvents()
            #expect(off.map(\.name) == [.suggestion])
            #expect(off.first?.state.suggestion == nil)
            settings.suggestionSeconds = 3
            try rig.engine.reconfigure(settings)
            #expect(rig.engine.state.suggestion == .portrait, "still held in portrait")
            #expect(rig.suggestionSeconds == 3)
        }
    }
}
