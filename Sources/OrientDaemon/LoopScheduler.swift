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

/// The engine's timers and next turns on the daemon's sd-event loop.
final class LoopScheduler: EngineScheduler {
    private let loop: EventLoop

    init(loop: EventLoop) {
        self.loop = loop
    }

    func addTimer(after seconds: Double, _ fire: @escaping () -> Void) throws -> any EngineTimer {
        try loop.addTimer(at: loop.now + seconds, accuracy: 0.05, handler: fire)
    }

    func addNextTurnAction(_ action: @escaping () -> Void) throws -> AnyObject {
        try loop.addNextTurnAction(action)
    }
}

extension TimerSource: EngineTimer {
    func cancel() {
        isEnabled = false
    }
}
