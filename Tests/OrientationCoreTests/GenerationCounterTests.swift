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

/// PROTOCOL.md, "Generation counting": a count per connection, the sensor runs while the sum is
/// above zero, closing a connection takes all of its count away, `end` at 0 is refused.
@Suite struct GenerationCounterTests {
    let first = ClientID(1)
    let second = ClientID(2)

    func expect(
        _ update: GenerationCounter.Update,
        count: Int? = nil,
        _ transition: GenerationCounter.Transition,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        if let count { #expect(update.count == count, sourceLocation: sourceLocation) }
        #expect(update.transition == transition, sourceLocation: sourceLocation)
    }

    func expect(
        _ transition: GenerationCounter.Transition,
        _ expected: GenerationCounter.Transition,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(transition == expected, sourceLocation: sourceLocation)
    }

    @Test func nestedBeginsAndEnds() throws {
        var counter = GenerationCounter()
        #expect(!counter.isGenerating)
        expect(counter.begin(first), count: 1, .started)
        expect(counter.begin(first), count: 2, .none)
        #expect(counter.total == 2)
        expect(try counter.end(first), count: 1, .none)
        #expect(counter.isGenerating)
        expect(try counter.end(first), count: 0, .stopped)
        #expect(!counter.isGenerating)
        #expect(counter.total == 0)
        #expect(counter.count(for: first) == 0)
        // And again: the next begin starts the sensor once more.
        expect(counter.begin(first), .started)
    }

    @Test func twoClients() throws {
        var counter = GenerationCounter()
        expect(counter.begin(first), .started)
        expect(counter.begin(second), count: 1, .none)
        #expect(counter.total == 2)
        expect(try counter.end(first), count: 0, .none)
        #expect(counter.isGenerating)
        #expect(counter.count(for: second) == 1)
        expect(try counter.end(second), count: 0, .stopped)
        #expect(!counter.isGenerating)
    }

    @Test func vanishingClientAloneStopsTheSensor() {
        var counter = GenerationCounter()
        _ = counter.begin(first)
        _ = counter.begin(first)
        expect(counter.remove(first), .stopped)
        #expect(counter.total == 0)
        #expect(counter.count(for: first) == 0)
    }

    @Test func vanishingClientStopsOnlyWhenTheTotalHitsZero() throws {
        var counter = GenerationCounter()
        _ = counter.begin(first)
        _ = counter.begin(first)
        _ = counter.begin(second)
        expect(counter.remove(first), .none)
        #expect(counter.total == 1)
        #expect(counter.isGenerating)
        #expect(counter.count(for: first) == 0)
        #expect(counter.count(for: second) == 1)
        // Its count went with it: a late end is refused.
        #expect(throws: NotGeneratingError.self) { try counter.end(first) }
        expect(try counter.end(second), .stopped)
    }

    @Test func endBelowZeroIsRefusedAndChangesNothing() throws {
        var counter = GenerationCounter()
        let error = #expect(throws: NotGeneratingError.self) { try counter.end(first) }
        #expect(error?.client == first)
        #expect(counter.total == 0)
        #expect(counter.counts.isEmpty)

        _ = counter.begin(second)
        _ = counter.begin(first)
        _ = try counter.end(first)
        #expect(throws: NotGeneratingError.self) { try counter.end(first) }
        // One client cannot end another's generation.
        #expect(counter.total == 1)
        #expect(counter.counts == [second: 1])
        #expect(counter.isGenerating)
    }

    @Test func removingAnUnknownClientDoesNothing() {
        var counter = GenerationCounter()
        expect(counter.remove(first), .none)
        #expect(counter.total == 0)
        _ = counter.begin(second)
        expect(counter.remove(first), .none)
        #expect(counter.total == 1)
        #expect(counter.counts == [second: 1])
    }
}
