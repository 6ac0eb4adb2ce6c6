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
import OrientationCore

/// The virtual tablet-mode switch's claim on the sensors: a generation count of the daemon's own, held by no
/// connection (no event is sent for it), while the switch could be wanted (``VirtualSwitchPolicy/listens(_:)``), so
/// that the hinge is read with no client generating. libinput is the listener then (mutter releases the
/// accelerometer until it is in touch mode, which only the switch brings). A value: a decision in, what to do with
/// the count out.
struct VirtualSwitchClaim {
    /// What to do with the claim's count.
    enum Action: Equatable {
        case begin
        case end
    }

    /// The claim's identity among the clients.
    let client: ClientID
    private let logger: Logger
    /// `[Policy] VirtualTabletSwitch=`.
    var policy: VirtualSwitchPolicy
    /// Whether the count is held now.
    private(set) var held = false
    /// A refresh asked for from inside a change, to run at the loop's next turn.
    private var pending: AnyObject?

    init(client: ClientID, mode: DaemonSettings.VirtualTabletSwitchMode, logger: Logger) {
        self.client = client
        self.logger = logger
        policy = VirtualSwitchPolicy(mode: mode)
    }

    /// What the claim does for `decision`: nil when it stays as it is.
    mutating func refresh(_ decision: TabletModeDecision) -> Action? {
        pending = nil
        let wanted = policy.listens(decision)
        guard wanted != held else { return nil }
        held = wanted
        if wanted {
            logger.info("the virtual tablet-mode switch keeps the sensors running to read the hinge")
        } else {
            logger.info("the virtual tablet-mode switch no longer keeps the sensors running")
        }
        return wanted ? .begin : .end
    }

    /// Lets the claim go for good (at exit): `.end` when it was held.
    mutating func release() -> Action? {
        pending = nil
        policy.mode = .no
        guard held else { return nil }
        held = false
        return .end
    }

    /// Has `refresh` run at the loop's next turn (once, however often it is asked before then), as asked from inside a
    /// change: a base accelerometer found or lost while the sensors start.
    mutating func refreshLater(on scheduler: any EngineScheduler, _ refresh: @escaping () -> Void) {
        guard pending == nil else { return }
        do {
            pending = try scheduler.addNextTurnAction(refresh)
        } catch {
            logger.error(
                "cannot schedule the virtual tablet-mode switch's claim on the sensors",
                metadata: ["error": "\(error)"]
            )
        }
    }
}
