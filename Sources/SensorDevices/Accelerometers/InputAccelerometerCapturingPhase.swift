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

/// What an ``InputAccelerometerSensor`` holds while it captures: the open node, and the reading or failure it hands
/// on at the loop's next turn. Both go with the capturing phase (``SensorPhases/Phase``).
final class InputAccelerometerCapturingPhase: CapturingPhase {
    /// The evdev node, open and watched.
    let device: InputAccelerometerDevice
    /// The first reading (the values held at the open), or a failure, handed on at the loop's next turn.
    var pendingAction: TimerSource?

    /// The capturing phase of the open `device`.
    init(device: InputAccelerometerDevice) {
        self.device = device
    }

    func stop() {
        device.stop()
    }
}
