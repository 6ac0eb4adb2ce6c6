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

import EventLoop
import Logging
import OrientationCore
import SensorDevices

/// Writes both sensors' samples to the trace, the base's on the display's clock (their sink), and says when the
/// display accelerometer goes and returns (their delegate).
final class TraceRecording: AccelerometerSampleSink, AccelerometerSensorDelegate {
    private let loop: EventLoop
    private let logger: Logger
    private let clocks = SensorClocks()
    /// The trace, opened once the sensors say what they found (no sample arrives before the loop runs).
    var sink: TraceSink?

    init(loop: EventLoop, logger: Logger) {
        self.loop = loop
        self.logger = logger
    }

    func take(_ sample: Sample, from location: SensorLocation) {
        switch location {
        case .display:
            clocks.display(sample, now: loop.now)
            sink?.write(sample)
        case .base:
            sink?.writeBase(clocks.base(sample, now: loop.now))
        }
    }

    func statusChanged(at location: SensorLocation, from previous: SensorState, to current: SensorState) {
        guard location == .display else { return }
        switch current {
        case .absent where previous == .active:
            logger.warning("the accelerometer is gone; waiting for it to return")
        case .active where previous != .stopped:
            logger.notice("the accelerometer is back; recording again")
        default:
            break
        }
    }
}
