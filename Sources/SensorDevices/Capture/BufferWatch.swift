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

/// The watch over a buffer's delivery, as a value: counts and clocks in, keep / re-validate / fall back out.
///
/// Many drivers stop delivering after a suspend. The sensor looks at the buffer every `PollFallbackSec=` / 2 with
/// the number of usable samples handed on so far and the time the system spent suspended, and tells the watch the
/// time of every sample. A suspend, two samples more than ``Settings/clockJump`` apart, or a buffer that delivered
/// and then stays silent for `PollFallbackSec=` (two silent looks) asks for a re-validation: the buffer disabled and
/// enabled again. A buffer that never delivered (at the start, or after a re-validation), or one that needs
/// re-validating again before it delivered a watch period's worth of samples, is replaced by polling.
///
/// While a motion gate holds back the scans of a still device (``MotionGate``), silence is no fault and samples far
/// apart are no clock jump: the sensor looks every ``Settings/gatedLookInterval`` instead (``gatedLook(usable:
/// asleepOffset:)``): a suspend is found at the next look, and when ``Settings/gatedLooksPerProbe`` looks in a row
/// found no sample (the first silent look, until a probe of this buffer was answered), one scan is let through
/// the gate; if none comes within `PollFallbackSec=`
/// (``probeEnded(usable:)``), the buffer is re-validated as a silent one. A buffer gone silent while gated is so found
/// within ``Settings/gatedLooksPerProbe`` × ``Settings/gatedLookInterval`` + `PollFallbackSec=`
/// (``Settings/gatedSilenceBound``).
///
/// No clock is read and nothing is allocated here: the sensor passes the loop's cached clocks and the sample times.
struct BufferWatch: Equatable, Sendable {
    /// What the watch is told to judge by.
    struct Settings: Equatable, Sendable {
        /// Consecutive samples, or looks, this far apart in suspended time (seconds) mean a suspend.
        var clockJump: Double
        /// Usable samples a re-validated buffer must deliver before it may be re-validated again: a watch
        /// period's worth (`rate` × `PollFallbackSec=`), at least one.
        var enoughAfterRevalidation: Int
        /// Seconds between two looks while the gate holds the scans back: ``gatedLookFactor`` × `PollFallbackSec=`.
        var gatedLookInterval: Double
        /// Looks in a row that find no sample before one scan is let through the gate (a probe): 1 for a HID hub's
        /// hysteresis, which opens and closes with two attribute writes, more for an any-motion trigger, which
        /// changes only with the buffer off (``MotionGate/looksPerProbe``).
        var gatedLooksPerProbe: Int

        /// The looks while gated are this many times `PollFallbackSec=` apart (40 s by default). A look alone is one
        /// wake-up (the looks of a convertible's two sensors fall in one: the timers' second of slack); a probe adds
        /// what opening and closing the gate costs (``MotionGate/looksPerProbe``).
        static let gatedLookFactor = 20.0

        /// The settings for a sensor asking for `rate` samples per second and falling back after `pollFallback`,
        /// gated by `gate` at the idle pace (nil: no gate).
        init(clockJump: Double, rate: Double, pollFallback: Double, gate: MotionGate? = nil) {
            self.clockJump = clockJump
            enoughAfterRevalidation = Int(max(1, rate * pollFallback))
            gatedLookInterval = Self.gatedLookFactor * pollFallback
            gatedLooksPerProbe = gate?.looksPerProbe ?? 1
        }

        /// The longest a buffer gone silent while gated and still stays unnoticed: the looks before a probe, then
        /// the probe's `PollFallbackSec=` (a re-validated buffer that stays silent is polled `PollFallbackSec=` later).
        var gatedSilenceBound: Double {
            Double(gatedLooksPerProbe) * gatedLookInterval + gatedLookInterval / Self.gatedLookFactor
        }
    }

    /// Why the buffer is re-validated or replaced.
    indirect enum Cause: Equatable, Sendable {
        /// The system was suspended for this many seconds between two looks.
        case suspended(seconds: Double)
        /// Two consecutive samples were this many seconds apart (a suspend, or the clock was set).
        case clockJumped(seconds: Double)
        /// The buffer delivered, then nothing usable for `PollFallbackSec=`.
        case silent
        /// The buffer delivered nothing usable within `PollFallbackSec=` of being enabled.
        case neverDelivered
        /// The buffer delivered nothing usable within `PollFallbackSec=` of being enabled again.
        case silentAfterRevalidation
        /// A re-validation was asked for this cause soon after the previous one: it did not help.
        case againSoonAfterRevalidation(Cause)
    }

    /// What to do with the buffer.
    enum Verdict: Equatable, Sendable {
        /// Go on capturing through it.
        case keep
        /// Disable and enable it again.
        case revalidate(Cause)
        /// Stop it and poll instead.
        case fallBack(Cause)
        /// Gated and nothing came since the previous look: let one scan through the gate.
        case probe
    }

    let settings: Settings
    /// Usable samples handed on when this buffer was enabled.
    let usableAtStart: Int
    /// Usable samples handed on at the previous look.
    private(set) var usableAtLastLook: Int
    /// Consecutive looks that found no new usable sample.
    private(set) var silentLooks = 0
    /// Consecutive gated looks that found no new usable sample since the last probe (or the gate closed).
    private(set) var quietGatedLooks = 0
    /// Whether a probe of this buffer was answered: until one was, the first silent gated look probes, whatever
    /// ``Settings/gatedLooksPerProbe`` says. (Scans that come while gated may be the last of the full pace, read after
    /// the gate closed: they prove nothing of the gate.)
    private(set) var deliveredGated = false
    /// Whether the last gated look asked for a probe: a sample seen at the next look answered it (the sensor stops
    /// waiting for ``probeEnded(usable:)`` once a sample comes).
    private(set) var probeAsked = false
    /// Time spent suspended (CLOCK_BOOTTIME − CLOCK_MONOTONIC) at the previous look: it grows by every suspend.
    private(set) var asleepOffset: Double
    /// The time of the previous sample; NaN before the first.
    private(set) var lastSampleTime = Double.nan
    /// Usable samples handed on when this buffer was enabled again by a re-validation; nil when it is the first
    /// buffer of this capture.
    let usableAtRevalidation: Int?

    /// The watch of a buffer just enabled, with `usable` samples handed on so far and `asleepOffset` the time
    /// spent suspended until now; `revalidation`, when it was enabled again by a re-validation.
    init(settings: Settings, usable: Int, asleepOffset: Double, revalidation: Int? = nil) {
        self.settings = settings
        usableAtStart = usable
        usableAtLastLook = usable
        self.asleepOffset = asleepOffset
        usableAtRevalidation = revalidation
    }

    /// Whether this buffer was enabled again by a re-validation.
    var revalidated: Bool { usableAtRevalidation != nil }

    /// A look at the buffer, every `PollFallbackSec=` / 2: `usable` samples handed on so far, `asleepOffset` the
    /// time spent suspended until now.
    mutating func look(usable: Int, asleepOffset: Double) -> Verdict {
        let slept = asleepOffset - self.asleepOffset
        self.asleepOffset = asleepOffset
        if slept > settings.clockJump {
            return revalidation(because: .suspended(seconds: slept), usable: usable)
        }
        if usable != usableAtLastLook {
            usableAtLastLook = usable
            silentLooks = 0
            return .keep
        }
        silentLooks += 1
        guard silentLooks >= 2 else { return .keep }
        if usable != usableAtStart {
            return revalidation(because: .silent, usable: usable)
        }
        return .fallBack(revalidated ? .silentAfterRevalidation : .neverDelivered)
    }

    /// A look while the gate holds the scans back, every ``Settings/gatedLookInterval``: a suspend re-validates,
    /// a sample since the previous look keeps, nothing for ``Settings/gatedLooksPerProbe`` looks in a row asks for a
    /// probe.
    mutating func gatedLook(usable: Int, asleepOffset: Double) -> Verdict {
        let slept = asleepOffset - self.asleepOffset
        self.asleepOffset = asleepOffset
        silentLooks = 0
        if slept > settings.clockJump {
            return revalidation(because: .suspended(seconds: slept), usable: usable)
        }
        let asked = probeAsked
        probeAsked = false
        if usable != usableAtLastLook {
            usableAtLastLook = usable
            quietGatedLooks = 0
            if asked { deliveredGated = true }
            return .keep
        }
        quietGatedLooks += 1
        guard quietGatedLooks >= settings.gatedLooksPerProbe || !deliveredGated else { return .keep }
        quietGatedLooks = 0
        probeAsked = true
        return .probe
    }

    /// `PollFallbackSec=` after a probe: kept if a usable sample came since the look that asked for it, else the
    /// buffer is silent.
    mutating func probeEnded(usable: Int) -> Verdict {
        probeAsked = false
        if usable != usableAtLastLook {
            usableAtLastLook = usable
            deliveredGated = true
            return .keep
        }
        return revalidation(because: .silent, usable: usable)
    }

    /// The gate closed or opened (the pace changed): the looks count from `usable` on.
    mutating func gateChanged(usable: Int) {
        usableAtLastLook = usable
        silentLooks = 0
        quietGatedLooks = 0
        probeAsked = false
    }

    /// A sample read at `time` (usable or not): the cause of a re-validation when the clock jumped since the
    /// previous one, to be asked for outside the capture's callback with ``revalidation(because:usable:)``. A sample
    /// read through a motion gate (`gated`) may come any time after the previous one: its gap means nothing.
    mutating func sample(at time: Double, gated: Bool = false) -> Cause? {
        let gap = time - lastSampleTime
        lastSampleTime = time
        return !gated && gap.magnitude > settings.clockJump ? .clockJumped(seconds: gap) : nil
    }

    /// Whether a re-validation for `cause` may go ahead with `usable` samples handed on so far: not when the
    /// buffer was re-validated before and has not delivered ``Settings/enoughAfterRevalidation`` since (a driver
    /// that sends one scan when enabled and then nothing, or scans far apart): then poll, do not loop.
    func revalidation(because cause: Cause, usable: Int) -> Verdict {
        if let since = usableAtRevalidation, usable - since < settings.enoughAfterRevalidation {
            return .fallBack(.againSoonAfterRevalidation(cause))
        }
        return .revalidate(cause)
    }
}
