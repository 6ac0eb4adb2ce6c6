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
/// touch mode). Owned by the daemon; the engine's output hands it every new state; ``VirtualSwitchPolicy`` says
/// whether the switch exists and what it says. Made when it is first wanted, removed when it is not, or at exit.
final class VirtualSwitchPublisher {
    private unowned let engine: Engine
    private let logger: Logger
    private var policy: VirtualSwitchPolicy
    private var device: VirtualTabletSwitch?
    /// The failure said last, so that a uinput that cannot be used is said once, not at every change.
    private var lastFailure: SwitchError?

    init(engine: Engine, mode: DaemonSettings.VirtualTabletSwitchMode, logger: Logger) {
        self.engine = engine
        self.logger = logger
        policy = VirtualSwitchPolicy(mode: mode)
    }

    /// What the virtual switch says; nil while there is none.
    var published: Bool? { device?.tabletMode }

    /// A new `[Policy] VirtualTabletSwitch=`: applies at once.
    func reconfigure(_ mode: DaemonSettings.VirtualTabletSwitchMode) {
        guard mode != policy.mode else { return }
        policy.mode = mode
        update()
    }

    /// Makes, updates or removes the switch for what the engine knows now.
    func update() {
        let wanted = policy.published(
            VirtualSwitchPolicy.Inputs(
                tabletMode: engine.arbiter.tabletMode,
                source: engine.arbiter.source,
                realSwitch: engine.arbiter.switchPosition != nil,
                hinge: engine.hasBase
            )
        )
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
