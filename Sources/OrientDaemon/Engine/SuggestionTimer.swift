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

import Logging

/// The time a rotation suggestion stands (`[Policy] SuggestionSec=`): a one-shot timer, armed when a suggestion
/// appears or moves, off when it goes; when it fires, its owner (the engine) withdraws the suggestion.
///
/// The timer is made at the first suggestion and kept: later ones only set its deadline, so that a suggestion costs
/// no allocation, and nothing wakes the daemon while there is none.
struct SuggestionTimer {
    private var timer: (any EngineTimer)?

    /// Fires `expired` after `seconds`, replacing any deadline set before; nil: turned off. `expired` is used only
    /// the first time, when the timer is made.
    mutating func arm(
        _ seconds: Double?,
        on scheduler: any EngineScheduler,
        logger: Logger,
        expired: @escaping () -> Void
    ) {
        guard let seconds else {
            timer?.cancel()
            return
        }
        if let timer {
            timer.schedule(after: seconds)
            return
        }
        do {
            timer = try scheduler.addTimer(after: seconds, expired)
        } catch {
            // Without a timer the suggestion stands until the device or the lock changes.
            logger.warning("cannot arm the rotation suggestion's timer", metadata: ["error": "\(error)"])
        }
    }
}
