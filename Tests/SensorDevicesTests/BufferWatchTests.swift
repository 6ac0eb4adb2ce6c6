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

/// The buffer watch's decisions, step by step: what a look or a sample leads to, without a device.
@Suite struct BufferWatchTests {
    /// 20 Hz with `PollFallbackSec=2`: looks every second, 40 samples to deliver after a re-validation.
    static let settings = BufferWatch.Settings(clockJump: 5, rate: 20, pollFallback: 2)

    /// One step of a scenario: a look with the usable samples so far and the time spent suspended so far, and
    /// the verdict it must give.
    struct Look: Sendable, CustomTestStringConvertible {
        var usable: Int
        var asleep: Double = 0
        var verdict: BufferWatch.Verdict = .keep

        var testDescription: String { "look(usable: \(usable), asleep: \(asleep)) → \(verdict)" }
    }

    /// A scenario: a watch started at `start` usable samples (re-validated at `revalidation`), then looks.
    struct Scenario: Sendable, CustomTestStringConvertible {
        var name: String
        var start: Int
        var revalidation: Int? = nil
        var looks: [Look]

        var testDescription: String { name }
    }

    static let scenarios: [Scenario] = [
        Scenario(name: "a buffer that delivers is kept", start: 0, looks: [Look(usable: 20), Look(usable: 40)]),
        Scenario(
            name: "a buffer that never delivers is replaced after two silent looks",
            start: 7,
            looks: [Look(usable: 7), Look(usable: 7, verdict: .fallBack(.neverDelivered))]
        ),
        Scenario(
            name: "a buffer that delivered and falls silent is re-validated after two silent looks",
            start: 0,
            looks: [Look(usable: 5), Look(usable: 5), Look(usable: 5, verdict: .revalidate(.silent))]
        ),
        Scenario(
            name: "a sample between two silent looks starts the count again",
            start: 0,
            looks: [
                Look(usable: 3), Look(usable: 3), Look(usable: 4), Look(usable: 4),
                Look(usable: 4, verdict: .revalidate(.silent)),
            ]
        ),
        Scenario(
            name: "a suspend longer than the clock jump re-validates at once",
            start: 0,
            looks: [
                Look(usable: 20, asleep: 1),
                Look(usable: 40, asleep: 31, verdict: .revalidate(.suspended(seconds: 30))),
            ]
        ),
        Scenario(
            name: "a short suspend is a look like any other",
            start: 0,
            looks: [
                Look(usable: 20, asleep: 4), Look(usable: 20, asleep: 8),
                Look(usable: 20, asleep: 12, verdict: .revalidate(.silent)),
            ]
        ),
        Scenario(
            name: "a buffer enabled again that stays silent is replaced",
            start: 50,
            revalidation: 50,
            looks: [Look(usable: 50), Look(usable: 50, verdict: .fallBack(.silentAfterRevalidation))]
        ),
        Scenario(
            name: "a buffer enabled again that falls silent before a watch period's worth is replaced",
            start: 50,
            revalidation: 50,
            looks: [
                Look(usable: 60), Look(usable: 60),
                Look(usable: 60, verdict: .fallBack(.againSoonAfterRevalidation(.silent))),
            ]
        ),
        Scenario(
            name: "a buffer enabled again that delivered a watch period's worth is re-validated again",
            start: 50,
            revalidation: 50,
            looks: [Look(usable: 90), Look(usable: 90), Look(usable: 90, verdict: .revalidate(.silent))]
        ),
        Scenario(
            name: "a suspend soon after a re-validation is polled instead",
            start: 50,
            revalidation: 50,
            looks: [
                Look(usable: 55, asleep: 60, verdict: .fallBack(.againSoonAfterRevalidation(.suspended(seconds: 60))))
            ]
        ),
    ]

    @Test(arguments: scenarios)
    func looks(scenario: Scenario) {
        var watch = BufferWatch(
            settings: Self.settings,
            usable: scenario.start,
            asleepOffset: 0,
            revalidation: scenario.revalidation
        )
        #expect(watch.revalidated == (scenario.revalidation != nil))
        for (index, look) in scenario.looks.enumerated() {
            let verdict = watch.look(usable: look.usable, asleepOffset: look.asleep)
            #expect(verdict == look.verdict, "look \(index + 1): \(look.testDescription)")
        }
    }

    /// Sample times in, a clock jump out: only between two samples, either way, more than the clock jump apart.
    @Test(
        arguments: [
            ([100.0, 100.05, 100.1], [nil, nil, nil]),
            ([100, 100.05, 110], [nil, nil, BufferWatch.Cause.clockJumped(seconds: 9.95)]),
            ([100, 40], [nil, .clockJumped(seconds: -60)]),
            ([100, 104.9, 109.8], [nil, nil, nil]),
        ] as [([Double], [BufferWatch.Cause?])]
    )
    func clockJumps(times: [Double], causes: [BufferWatch.Cause?]) {
        var watch = BufferWatch(settings: Self.settings, usable: 0, asleepOffset: 0)
        let found = times.map { watch.sample(at: $0) }
        #expect(found.count == causes.count)
        for (cause, expected) in zip(found, causes) {
            switch (cause, expected) {
            case (nil, nil): break
            case (.clockJumped(let seconds)?, .clockJumped(let expectedSeconds)?):
                #expect(abs(seconds - expectedSeconds) < 1e-9)
            default: Issue.record("\(String(describing: cause)) is not \(String(describing: expected))")
            }
        }
    }

    /// A re-validation asked for outside a look (a clock jump) follows the same rule as one from a look.
    @Test func aClockJumpSoonAfterARevalidationFallsBack() {
        let fresh = BufferWatch(settings: Self.settings, usable: 10, asleepOffset: 0)
        let cause = BufferWatch.Cause.clockJumped(seconds: 12)
        #expect(fresh.revalidation(because: cause, usable: 11) == .revalidate(cause))
        let again = BufferWatch(settings: Self.settings, usable: 20, asleepOffset: 0, revalidation: 20)
        #expect(again.revalidated)
        #expect(again.revalidation(because: cause, usable: 59) == .fallBack(.againSoonAfterRevalidation(cause)))
        #expect(again.revalidation(because: cause, usable: 60) == .revalidate(cause))
    }

    /// At least one sample after a re-validation, however low the rate and short the fallback.
    @Test func aSlowSensorNeedsOneSampleAfterARevalidation() {
        #expect(BufferWatch.Settings(clockJump: 5, rate: 0.2, pollFallback: 1).enoughAfterRevalidation == 1)
        #expect(BufferWatch.Settings(clockJump: 5, rate: 400, pollFallback: 0.5).enoughAfterRevalidation == 200)
    }

    /// Gated (the driver holds back the scans of a still device): a silent look asks for a probe, not a
    /// re-validation; a probe answered keeps the buffer, a probe unanswered re-validates it; a suspend still
    /// re-validates at once. The looks are 20 × `PollFallbackSec=` apart.
    @Test func aGatedBufferIsProbedBeforeItIsJudgedSilent() {
        #expect(Self.settings.gatedLookInterval == 40)
        var watch = BufferWatch(settings: Self.settings, usable: 0, asleepOffset: 0)
        _ = watch.look(usable: 40, asleepOffset: 0)
        watch.gateChanged(usable: 45)
        #expect(watch.gatedLook(usable: 45, asleepOffset: 0) == .probe)
        #expect(watch.gatedLook(usable: 45, asleepOffset: 0) == .probe, "silent looks never add up while gated")
        #expect(watch.probeEnded(usable: 46) == .keep)
        #expect(watch.gatedLook(usable: 47, asleepOffset: 0) == .keep, "a motion since the last look")
        #expect(watch.gatedLook(usable: 47, asleepOffset: 0) == .probe)
        #expect(watch.probeEnded(usable: 47) == .revalidate(.silent))
        #expect(watch.gatedLook(usable: 47, asleepOffset: 60) == .revalidate(.suspended(seconds: 60)))
    }

    /// Gated by an any-motion trigger, whose probe disables and enables the buffer twice: a probe only after
    /// ``MotionGate/triggerLooksPerProbe`` looks in a row found nothing (27 minutes by default), but at the first
    /// silent look until a probe of this buffer was answered; a motion or a change of the gate starts the count
    /// again; a suspend still re-validates at the next look. A hub's hysteresis is probed at
    /// every silent look, and the bound on finding a silent buffer says both.
    @Test func aTriggerGatedBufferIsProbedEveryFortyLooks() {
        let trigger = BufferWatch.Settings(
            clockJump: 5,
            rate: 20,
            pollFallback: 2,
            gate: .anyMotionTrigger("bmc150_accel-any-motion-dev0")
        )
        #expect(trigger.gatedLooksPerProbe == 40 && trigger.gatedSilenceBound == 1602)
        let hub = BufferWatch.Settings(clockJump: 5, rate: 20, pollFallback: 2, gate: .hysteresis("5"))
        #expect(hub.gatedLooksPerProbe == 1 && hub.gatedSilenceBound == 42)
        var watch = BufferWatch(settings: trigger, usable: 0, asleepOffset: 0)
        watch.gateChanged(usable: 45)
        #expect(watch.gatedLook(usable: 45, asleepOffset: 0) == .probe, "no probe answered yet")
        #expect(watch.gatedLook(usable: 45, asleepOffset: 0) == .probe, "unanswered (the sensor waits the probe out)")
        #expect(watch.probeEnded(usable: 45) == .revalidate(.silent))
        watch.gateChanged(usable: 45)
        #expect(watch.gatedLook(usable: 45, asleepOffset: 0) == .probe)
        #expect(watch.gatedLook(usable: 46, asleepOffset: 0) == .keep, "the probe's scan, seen at the next look")
        for look in 1..<40 { #expect(watch.gatedLook(usable: 46, asleepOffset: 0) == .keep, "look \(look)") }
        #expect(watch.gatedLook(usable: 46, asleepOffset: 0) == .probe, "the fortieth silent look")
        #expect(watch.probeEnded(usable: 47) == .keep)
        for _ in 1..<10 { #expect(watch.gatedLook(usable: 47, asleepOffset: 0) == .keep) }
        #expect(watch.gatedLook(usable: 48, asleepOffset: 0) == .keep, "a motion starts the count again")
        for _ in 1..<40 { #expect(watch.gatedLook(usable: 48, asleepOffset: 0) == .keep) }
        watch.gateChanged(usable: 48)
        for _ in 1..<40 { #expect(watch.gatedLook(usable: 48, asleepOffset: 0) == .keep) }
        #expect(watch.gatedLook(usable: 48, asleepOffset: 60) == .revalidate(.suspended(seconds: 60)))
        #expect(watch.gatedLook(usable: 48, asleepOffset: 60) == .probe)
        #expect(watch.probeEnded(usable: 48) == .revalidate(.silent))
    }

    /// A probe unanswered soon after a re-validation: polled instead.
    @Test func aSilentProbeSoonAfterARevalidationFallsBack() {
        var watch = BufferWatch(settings: Self.settings, usable: 10, asleepOffset: 0, revalidation: 10)
        watch.gateChanged(usable: 12)
        #expect(watch.gatedLook(usable: 12, asleepOffset: 0) == .probe)
        #expect(watch.probeEnded(usable: 12) == .fallBack(.againSoonAfterRevalidation(.silent)))
    }

    /// Samples read through the gate may be minutes apart: no clock jump; the first read without it is judged.
    @Test func samplesThroughTheGateAreNoClockJump() {
        var watch = BufferWatch(settings: Self.settings, usable: 0, asleepOffset: 0)
        #expect(watch.sample(at: 100) == nil)
        #expect(watch.sample(at: 400, gated: true) == nil)
        #expect(watch.sample(at: 400.25) == nil)
        #expect(watch.sample(at: 500.75) == .clockJumped(seconds: 100.5))
    }
}
