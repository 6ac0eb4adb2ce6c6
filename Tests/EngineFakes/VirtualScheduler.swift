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

package import OrientDaemon

/// The engine's timers and next turns on a virtual clock, for its unit tests and its benchmark: nothing runs until
/// the test moves the clock (``advance(by:)``) or the turn (``runNextTurns()``).
package final class VirtualScheduler: EngineScheduler {
    /// The virtual clock, in seconds.
    package private(set) var now = 0.0
    /// Every timer made, in order.
    package private(set) var timers: [VirtualTimer] = []
    private var nextTurn: [(token: Weak, action: () -> Void)] = []

    package init() {}

    package func addTimer(after seconds: Double, _ fire: @escaping () -> Void) throws -> any EngineTimer {
        let timer = VirtualTimer(scheduler: self, fire: fire)
        timer.schedule(after: seconds)
        timers.append(timer)
        return timer
    }

    package func addNextTurnAction(_ action: @escaping () -> Void) throws -> AnyObject {
        let token = NextTurnToken()
        nextTurn.append((Weak(token), action))
        return token
    }

    /// Runs the next-turn actions asked for so far, and those they ask for, unless their tokens were released.
    package func runNextTurns() {
        while !nextTurn.isEmpty {
            let due = nextTurn
            nextTurn.removeAll()
            for (token, action) in due where token.object != nil { action() }
        }
    }

    /// Moves the clock on by `seconds`, firing each timer that falls due on the way, at its deadline, in order.
    package func advance(by seconds: Double) {
        let end = now + seconds
        while let timer = timers.filter({ ($0.deadline ?? .infinity) <= end }).min(by: { $0.deadline! < $1.deadline! })
        {
            now = timer.deadline!
            timer.fire()
        }
        now = end
    }
}

/// A one-shot timer of a ``VirtualScheduler``.
package final class VirtualTimer: EngineTimer {
    private unowned let scheduler: VirtualScheduler
    private let action: () -> Void
    /// When it fires; nil while off.
    package private(set) var deadline: Double?
    /// How many times it was scheduled or cancelled.
    package private(set) var settings = 0

    init(scheduler: VirtualScheduler, fire: @escaping () -> Void) {
        self.scheduler = scheduler
        action = fire
    }

    /// The seconds it was last scheduled for from now; nil while off.
    package var remaining: Double? { deadline.map { $0 - scheduler.now } }

    package func schedule(after seconds: Double) {
        deadline = scheduler.now + seconds
        settings += 1
    }

    package func cancel() {
        deadline = nil
        settings += 1
    }

    func fire() {
        deadline = nil
        action()
    }
}

/// A next-turn action's token: the action does not run once it is released.
private final class NextTurnToken {}

/// A reference that does not keep its object.
private struct Weak {
    weak var object: AnyObject?
    init(_ object: AnyObject) { self.object = object }
}
