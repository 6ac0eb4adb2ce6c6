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

public import EventLoop
public import Logging
import UdevSupport

/// Whether a convertible is folded as a tablet: the `SW_TABLET_MODE` switches of its input devices, read
/// through libevdev, found through libudev and followed through hotplug.
///
/// Every watched switch is an fd of the loop that wakes it only on the switch's events, so it watches for
/// the whole life of the daemon, generating or not. With several switches, the device is in tablet mode
/// when any of them says so; with none, tablet mode is unknown (nil).
public final class TabletModeMonitor {
    /// One watched switch, for `status`.
    public struct Switch: Sendable, Hashable {
        /// The device node (`/dev/input/event5`).
        public var device: String
        /// The input device's name (`Intel HID switches`).
        public var name: String
        /// What this switch reads now.
        public var tabletMode: Bool
    }

    private let loop: EventLoop
    private let logger: Logger
    private let udev: Udev?
    private var monitor: HotplugMonitor?
    private var devices: [String: SwitchDevice] = [:]
    /// Nodes (by udev name) that could not be opened, so that each is reported once rather than at every udev event.
    private var failed: Set<String> = []
    private let onChange: (Bool?) -> Void

    /// Whether the device is in tablet mode: true when any switch says so, nil without a switch.
    public private(set) var tabletMode: Bool?

    /// The switches watched now, in node order.
    public var switches: [Switch] {
        devices.values.sorted { InputDeviceRecord.nodeOrder($0.sysname, $1.sysname) }
            .map { Switch(device: $0.devnode, name: $0.name, tabletMode: $0.isTabletMode) }
    }

    /// Finds the switches present now and starts following hotplug; ``tabletMode`` holds their state on return.
    /// Failures (no udev, a node that cannot be opened) are logged and leave tablet mode unknown.
    /// - Parameter onChange: Runs on the loop with the new ``tabletMode`` whenever it changes after this returns.
    public init(loop: EventLoop, logger: Logger, onChange: @escaping (Bool?) -> Void) {
        self.loop = loop
        self.logger = logger
        self.onChange = onChange
        let udev: Udev
        do {
            udev = try Udev()
        } catch {
            self.udev = nil
            logger.warning("the tablet-mode switch is not read", metadata: ["error": "\(error)"])
            return
        }
        self.udev = udev
        do {
            // Listening first, so that a device added during the scan below is not missed.
            monitor = try HotplugMonitor(loop: loop, subsystem: "input") { [unowned self] action, sysname in
                self.hotplug(action: action, sysname: sysname)
            }
        } catch {
            logger.warning(
                "input hotplug is not followed: a tablet-mode switch added later is not seen",
                metadata: ["error": "\(error)"]
            )
        }
        for record in InputDeviceRecord.all(udev) {
            watch(record)
        }
        tabletMode = combined
    }

    private var combined: Bool? {
        devices.isEmpty ? nil : devices.values.contains { $0.isTabletMode }
    }

    /// Opens a record's node if it may have a tablet-mode switch and is not watched yet.
    private func watch(_ record: InputDeviceRecord) {
        guard record.mayHaveTabletModeSwitch, devices[record.sysname] == nil else { return }
        do {
            let opened = try SwitchDevice.open(sysname: record.sysname, devnode: record.devnode, loop: loop) {
                [unowned self] device, outcome in
                self.read(device, outcome)
            }
            failed.remove(record.sysname)
            guard let opened else {
                logger.debug("no tablet-mode switch", metadata: ["device": "\(record.devnode)"])
                return
            }
            devices[record.sysname] = opened
            logger.info(
                "tablet-mode switch found",
                metadata: [
                    "device": "\(opened.devnode)", "name": "\(opened.name)",
                    "mode": "\(opened.isTabletMode ? "tablet" : "laptop")",
                ]
            )
        } catch {
            if failed.insert(record.sysname).inserted {
                logger.warning(
                    "cannot read a possible tablet-mode switch",
                    metadata: ["device": "\(record.devnode)", "error": "\(error)"]
                )
            }
        }
    }

    private func read(_ device: SwitchDevice, _ outcome: SwitchDevice.ReadOutcome) {
        switch outcome {
        case .read:
            logger.debug(
                "switch events",
                metadata: ["device": "\(device.devnode)", "mode": "\(device.isTabletMode ? "tablet" : "laptop")"]
            )
        case .closed(let error):
            if error.isDeviceGone {
                logger.info("tablet-mode switch gone", metadata: ["device": "\(device.devnode)"])
            } else {
                logger.warning(
                    "the tablet-mode switch failed and is no longer read",
                    metadata: ["device": "\(device.devnode)", "error": "\(error)"]
                )
            }
            devices[device.sysname] = nil
        }
        update()
    }

    private func hotplug(action: HotplugAction, sysname: String) {
        guard sysname.hasPrefix("event") else { return }
        logger.debug("udev input event", metadata: ["action": "\(action)", "device": "\(sysname)"])
        switch action {
        case .remove:
            failed.remove(sysname)
            guard let device = devices.removeValue(forKey: sysname) else { return }
            logger.info("tablet-mode switch removed", metadata: ["device": "\(device.devnode)"])
        case .add, .change, .bind:
            guard let udev, let record = InputDeviceRecord.named(sysname, udev) else { return }
            watch(record)
        case .unbind, .other:
            return
        }
        update()
    }

    /// Recomputes ``tabletMode`` and reports a change.
    private func update() {
        let now = combined
        guard now != tabletMode else { return }
        tabletMode = now
        onChange(now)
    }
}
