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

import CSystemd
import Glibc

/// CLOCK_MONOTONIC time: conversions between the API's seconds and sd-event's microseconds, and the loop's time.
enum MonotonicClock {
    /// Seconds as whole microseconds, rounded; negative and NaN become 0 (already due), too large `UInt64.max` (never).
    static func microseconds(fromSeconds seconds: Double) -> UInt64 {
        guard seconds > 0 else { return 0 }
        let microseconds = (seconds * 1_000_000).rounded()
        // Double(UInt64.max) rounds up to 2^64, which UInt64 cannot hold: compare before converting.
        return microseconds < Double(UInt64.max) ? UInt64(microseconds) : .max
    }

    /// Microseconds as seconds.
    static func seconds(fromMicroseconds microseconds: UInt64) -> Double {
        Double(microseconds) / 1_000_000
    }

    /// The loop's time in microseconds (`sd_event_now`): the start of the current iteration, no syscall;
    /// before the first iteration sd-event reads the clock itself, and after a failure (a fork) we do.
    static func now(of event: OpaquePointer) -> UInt64 {
        var microseconds: UInt64 = 0
        if sd_event_now(event, CLOCK_MONOTONIC, &microseconds) >= 0 {
            return microseconds
        }
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000 + UInt64(time.tv_nsec) / 1000
    }
}
