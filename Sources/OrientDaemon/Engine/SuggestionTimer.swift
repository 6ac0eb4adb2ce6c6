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

/// The time a rotation suggestion stands (`[Policy] SuggestionSec=`): a one-shot timer on the loop, armed when a
/// suggestion appears or moves, off when it goes; when it fires, the engine withdraws the suggestion.
///
/// The timer is made at the first suggestion and kept: later ones only set its deadline, so that a suggestion costs
/// no allocation, and nothing wakes the daemon while there is none.
final class SuggestionTimer {
    private let loop: EventLoop
    private let logger: Logger
    private var timer: TimerSource?
    /// The engine whose suggestion this times; set once the engine is made (it is made after the daemon's output).
    weak var engine: Engine?

    init(loop: EventLoop, logger: Logger) {
        self.loop = loop
        self.logger = logger
    }

    /// Fires after `seconds`, replacing any deadline set before; nil: turned off.
    func arm(_ seconds: Double?) {
        guard let seconds else {
            timer?.isEnabled = false
            return
        }
        if let timer {
            timer.schedule(after: seconds)
            return
        }
        do {
            timer = try loop.addTimer(at: loop.now + seconds, accuracy: 0.05) { [unowned self] in self.fired() }
        } catch {
            // Without a timer the suggestion stands until the device or the lock changes.
            logger.warning("cannot arm the rotation suggestion's timer", metadata: ["error": "\(error)"])
        }
    }

    private func fired() {
        engine?.suggestionTimedOut()
    }
}
