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

/// What an ``AccelerometerSensor`` holds while it captures: the capture, and for a capture through the buffer its
/// watch and the sources that serve the watch. They all go with the capturing phase (``SensorPhases/Phase``): a
/// re-validation, a fallback to polling, a stop or a failure enters another phase, and nothing is released by hand.
final class AccelerometerCapturing: SensorCapturing {
    /// The capture: through the buffer or polled.
    let capture: any Capture
    /// The judge of a capture through the buffer (``BufferWatch``); nil when polled.
    var watch: BufferWatch?
    /// The repeating look at a buffer that delivers (`lookAtBuffer()`).
    var bufferLooks: TimerSource?
    /// Whether the looks follow a capture whose motion gate holds back the scans of a still device: then they are
    /// ``BufferWatch/Settings/gatedLookInterval`` apart, and a silent one lets a scan through (a probe).
    var looksGated = false
    /// The end of a probe: `PollFallbackSec=` after it, unless a usable sample came first.
    var probeCheck: TimerSource?
    /// A re-validation asked for from inside the capture's callback, run at the loop's next turn.
    var pendingRevalidation: TimerSource?
    /// A look at the matrix after a `change` uevent of the device (a hwdb entry applied), at the loop's next turn.
    var pendingMatrixCheck: TimerSource?

    /// The capturing phase of `capture`, judged by `watch` when it reads the buffer.
    init(capture: any Capture, watch: BufferWatch? = nil, bufferLooks: TimerSource? = nil) {
        self.capture = capture
        self.watch = watch
        self.bufferLooks = bufferLooks
    }

    func stop() {
        capture.stop()
    }
}
