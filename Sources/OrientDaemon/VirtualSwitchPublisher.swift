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
import TabletMode

/// orientd's decision of tablet mode as a `SW_TABLET_MODE` switch of its own (``VirtualTabletSwitch``, through
/// uinput), for libinput (which turns the internal keyboard and touchpad off while it is on) and the desktop (mutter's
/// touch mode). Owned by the daemon; the engine's output hands it the tablet-mode decision after every change
/// (``TabletModeDecision``: it never reads the engine back); ``VirtualSwitchPolicy`` says whether the switch exists
/// and what it says. Made when it is first wanted, removed when it is not, or at exit.
///
/// While the switch could be wanted, the engine itself keeps the sensors running with a claim of its own
/// (``VirtualSwitchClaim``), so that the hinge is read with no client generating.
final class VirtualSwitchPublisher {
    private let logger: Logger
    private var policy: VirtualSwitchPolicy
    private var device: VirtualTabletSwitch?
    /// The failure said last, so that a uinput that cannot be used is said once, not at every change.
    private var lastFailure: SwitchError?
    /// The tablet-mode decision handed over last (none before the first).
    private var decision = TabletModeDecision(tabletMode: nil, source: nil, realSwitch: false, hinge: false)

    /// No switch yet: ``show(_:)`` makes it when a decision wants it.
    init(mode: DaemonSettings.VirtualTabletSwitchMode, logger: Logger) {
        self.logger = logger
        policy = VirtualSwitchPolicy(mode: mode)
    }

    /// What the virtual switch says; nil while there is none.
    var published: Bool? { device?.tabletMode }

    /// A new `[Policy] VirtualTabletSwitch=`: applies at once.
    func reconfigure(_ mode: DaemonSettings.VirtualTabletSwitchMode) {
        guard mode != policy.mode else { return }
        policy.mode = mode
        show(decision)
    }

    /// Makes, updates or removes the switch for `decision`.
    func show(_ decision: TabletModeDecision) {
        self.decision = decision
        let wanted = policy.published(decision)
        guard let wanted else {
            close()
            return
        }
        do {
            if let device {
                try device.set(tabletMode: wanted)
            } else {
                let made = try VirtualTabletSwitch(tabletMode: wanted)
                device = made
                logger.info(
                    "virtual tablet-mode switch made",
                    metadata: ["syspath": "\(made.syspath ?? "unknown")", "mode": "\(Self.modeName(wanted))"]
                )
            }
            lastFailure = nil
            logger.debug("virtual tablet-mode switch", metadata: ["mode": "\(Self.modeName(wanted))"])
        } catch {
            if error != lastFailure {
                logger.warning(
                    "the virtual tablet-mode switch cannot be published: libinput and the desktop do not see tablet mode",
                    metadata: ["error": "\(error)"]
                )
            }
            lastFailure = error
        }
    }

    /// Removes the switch (the kernel removes the device when its uinput fd closes).
    func close() {
        guard device != nil else { return }
        device = nil
        logger.info("virtual tablet-mode switch removed")
    }

    private static func modeName(_ tabletMode: Bool) -> String {
        tabletMode ? "tablet" : "laptop"
    }
}
