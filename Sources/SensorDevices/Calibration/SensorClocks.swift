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

public import OrientationCore

/// Puts the base accelerometer's sample times on the display accelerometer's clock, so that the hinge can pair
/// their readings by time.
///
/// The two sensors' times may come from different clocks: a buffer's kernel timestamps (the IIO timestamp clock,
/// CLOCK_REALTIME unless set otherwise) and a poll timer's CLOCK_MONOTONIC. Each sensor's offset from the loop's
/// clock is estimated as the smallest (loop time − sample time) seen: a sample is never handed on before it was
/// taken, so the smallest is the closest. A change of more than ``clockJump`` seconds is a new clock (a
/// suspend, a clock set, a sensor restarted in another mode), and starts the estimate again. O(1), no allocation.
public final class SensorClocks {
    /// An offset this far from the estimate means the sensor's clock changed.
    static let clockJump = 1.0

    private var displayOffset: Double?
    private var baseOffset: Double?

    /// No estimate yet.
    public init() {}

    /// A display sample handed on at loop time `now`.
    public func display(_ sample: Sample, now: Double) {
        Self.update(&displayOffset, time: sample.time, now: now)
    }

    /// A base sample handed on at loop time `now`, with its time on the display's clock (unchanged until the
    /// display has delivered).
    public func base(_ sample: Sample, now: Double) -> Sample {
        Self.update(&baseOffset, time: sample.time, now: now)
        guard let displayOffset, let baseOffset else { return sample }
        return Sample(time: sample.time + baseOffset - displayOffset, acceleration: sample.acceleration)
    }

    /// Forgets both estimates (the sensors stopped; they may come back with other clocks).
    public func reset() {
        displayOffset = nil
        baseOffset = nil
    }

    private static func update(_ offset: inout Double?, time: Double, now: Double) {
        let current = now - time
        guard current.isFinite else { return }
        if let estimate = offset, (current - estimate).magnitude < clockJump {
            offset = min(estimate, current)
        } else {
            offset = current
        }
    }
}
