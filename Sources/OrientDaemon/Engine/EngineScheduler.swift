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

/// The loop's timers and next turns, as the engine uses them: the daemon's event loop (``LoopScheduler``), or a
/// test's virtual clock. Every action runs on the loop's one thread, never inside the call that schedules it.
package protocol EngineScheduler: AnyObject {
    /// A one-shot timer that runs `fire` after `seconds`; it can be scheduled again once it fired.
    func addTimer(after seconds: Double, _ fire: @escaping () -> Void) throws -> any EngineTimer
    /// Runs `action` at the loop's next turn, after the change in progress; a token that cancels it when released
    /// before then.
    func addNextTurnAction(_ action: @escaping () -> Void) throws -> AnyObject
}

/// A one-shot timer of an ``EngineScheduler``.
package protocol EngineTimer: AnyObject {
    /// Fires after `seconds`, replacing any deadline set before.
    func schedule(after seconds: Double)
    /// Does not fire until scheduled again.
    func cancel()
}
