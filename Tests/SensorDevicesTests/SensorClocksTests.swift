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
import SensorDevices
import Testing

/// The base sensor's times on the display's clock: kernel timestamps against a poll timer's loop time.
@Suite struct SensorClocksTests {
    @Test func baseTimesFollowTheDisplayClockWhateverEachSensorsClock() {
        let clocks = SensorClocks()
        // The display's buffer stamps samples with CLOCK_REALTIME; the loop runs on CLOCK_MONOTONIC, and the base is
        // polled (its times are the loop's). Delivery delays vary from 0 to 30 ms.
        let realtime = 1_700_000_000.0
        var worst = 0.0
        for step in 0..<200 {
            let now = 100 + Double(step) * 0.05
            let delay = Double(step % 4) * 0.01
            clocks.display(Sample(time: realtime + now - delay - 0.002, x: 0, y: 0, z: 9.8), now: now)
            let base = clocks.base(Sample(time: now, x: 0, y: 0, z: 9.8), now: now)
            if step > 4 { worst = max(worst, (base.time - (realtime + now)).magnitude) }
        }
        #expect(worst < 0.01, "the base's times land within 10 ms of the display's clock (\(worst) s)")
    }

    @Test func aJumpedClockStartsTheEstimateAgain() {
        let clocks = SensorClocks()
        clocks.display(Sample(time: 50, x: 0, y: 0, z: 9.8), now: 10)
        #expect(clocks.base(Sample(time: 10, x: 0, y: 0, z: 9.8), now: 10).time == 50)
        // The base's clock jumps by an hour (a suspend seen by one clock only): the new offset is taken at once.
        #expect((clocks.base(Sample(time: 3610, x: 0, y: 0, z: 9.8), now: 10.1).time - 50.1).magnitude < 1e-9)
        clocks.reset()
        #expect(clocks.base(Sample(time: 7, x: 0, y: 0, z: 9.8), now: 11).time == 7, "no display sample yet")
    }
}
