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
import OrientationCore
import TabletMode

/// orientd's decision of tablet mode as a `SW_TABLET_MODE` switch of its own (``VirtualTabletSwitch``, through
/// uinput), for libinput (which turns the internal keyboard and touchpad off while it is on) and the desktop (mutter's
/// touch mode). Owned by the daemon; the engine's output hands it the tablet-mode decision after every change
/// (``TabletModeDecision``: it never reads the engine back); ``VirtualSwitchPolicy`` says whether the switch exists
/// and what it says. Made when it is first wanted, removed when it is not, or at exit.
///
/// While the switch could be wanted (``VirtualSwitchPolicy/listens(hinge:realSwitch:)``), it keeps the sensors
/// running with a generation claim of its own, so that the hinge is read with no client generating: libinput is the
/// listener then (mutter releases the accelerometer until it is in touch mode, which only the switch brings).
final class VirtualSwitchPublisher {
    private unowned let engine: Engine
    private let loop: EventLoop
    private let logger: Logger
    private var policy: VirtualSwitchPolicy
    private var device: VirtualTabletSwitch?
    /// The failure said last, so that a uinput that cannot be used is said once, not at every change.
    private var lastFailure: SwitchError?
    /// The switch's own generation claim: a count like a client's (PROTOCOL.md: the sensor runs only while the sum of
    /// the counts is above zero, and `generating` says so), held by no connection, so that no event is sent for it.
    private let listener: ClientID
    /// Whether the claim is held now (the engine's count for ``listener`` is 1).
    private var listening = false
    /// A refresh of the claim asked for from inside a change, run at the loop's next turn.
    private var pendingRefresh: TimerSource?
    /// The tablet-mode decision handed over last.
    private var decision: TabletModeDecision

    /// No switch and no claim yet: ``show(_:)`` and ``refreshListening(_:)`` make them for `decision`.
    init(
        engine: Engine,
        decision: TabletModeDecision,
        loop: EventLoop,
        mode: DaemonSettings.VirtualTabletSwitchMode,
        logger: Logger
    ) {
        self.engine = engine
        self.decision = decision
        self.loop = loop
        self.logger = logger
        policy = VirtualSwitchPolicy(mode: mode)
        listener = engine.newClientID()
    }

    /// What the virtual switch says; nil while there is none.
    var published: Bool? { device?.tabletMode }

    /// Whether the switch keeps the sensors running to read the hinge.
    var keepsSensorsOn: Bool { listening }

    /// A new `[Policy] VirtualTabletSwitch=`: applies at once.
    func reconfigure(_ mode: DaemonSettings.VirtualTabletSwitchMode) {
        guard mode != policy.mode else { return }
        policy.mode = mode
        show(decision)
        refreshListening(decision)
    }

    /// Begins or ends the switch's claim on the sensors for `decision`: held while the switch could be wanted. Not
    /// from inside an engine's change: ``refreshListeningLater(_:)`` is for those.
    func refreshListening(_ decision: TabletModeDecision) {
        self.decision = decision
        let wanted = policy.listens(decision)
        guard wanted != listening else { return }
        listening = wanted
        if wanted {
            _ = engine.begin(listener)
            logger.info("the virtual tablet-mode switch keeps the sensors running to read the hinge")
        } else {
            _ = try? engine.end(listener)
            logger.info("the virtual tablet-mode switch no longer keeps the sensors running")
        }
    }

    /// ``refreshListening(_:)`` at the loop's next turn, as asked from inside a change (a base accelerometer found or
    /// lost while the sensors start), with the decision handed over last by then.
    func refreshListeningLater(_ decision: TabletModeDecision) {
        self.decision = decision
        guard pendingRefresh == nil else { return }
        do {
            pendingRefresh = try loop.addNextTurnAction { [unowned self] in
                self.pendingRefresh = nil
                self.refreshListening(self.decision)
            }
        } catch {
            logger.error(
                "cannot schedule the virtual tablet-mode switch's claim on the sensors",
                metadata: ["error": "\(error)"]
            )
        }
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

    /// Ends the claim on the sensors and removes the switch, at exit.
    func shutDown() {
        pendingRefresh = nil
        if listening {
            listening = false
            _ = try? engine.end(listener)
        }
        close()
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
