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

/// The run of implausible readings (all zero, or clipped) an ``AccelerometerSensor`` has read since its last usable
/// one: a run of one kind that lasts ``reportAfter`` seconds of sample time is said once, and its end is said only
/// when the run was. No clock is read: the samples carry their time.
struct ImplausibleRun {
    /// A run of unusable readings this long (sample time, seconds) is said.
    static let reportAfter = 1.0

    /// What the readings are, since when, and whether the run was said; nil after a usable reading.
    private var run: (quality: ReadingQuality, since: Double, reported: Bool)?

    /// An unusable reading of `quality` at `time`.
    /// - Returns: what is wrong, in words for the log, when the run has just lasted long enough to be said; else nil.
    mutating func read(_ quality: ReadingQuality, at time: Double) -> String? {
        guard let current = run, current.quality == quality else {
            run = (quality, time, false)
            return nil
        }
        guard !current.reported, time - current.since >= Self.reportAfter else { return nil }
        run = (quality, current.since, true)
        return quality == .zero
            ? "the accelerometer reads 0 on every axis (powered down or not measuring?)"
            : "the accelerometer reads at the limit of its range (saturated)"
    }

    /// A usable reading ends the run.
    /// - Returns: whether the run was said (its end is said too).
    mutating func ended() -> Bool {
        guard let current = run else { return false }
        run = nil
        return current.reported
    }
}
