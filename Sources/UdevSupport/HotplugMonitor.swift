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

import CUdev
package import EventLoop
import SystemSupport

/// Watches udev for the devices of one subsystem coming and going (IIO for the accelerometer, input for
/// the tablet-mode switch); its fd is a source of the loop.
package final class HotplugMonitor {
    private let udev: Udev
    private let monitor: OpaquePointer
    private var source: IOSource?
    private let handler: (_ action: HotplugAction, _ sysname: String) -> Void

    /// Starts listening to udev's events of `subsystem`.
    /// - Throws: ``UdevError`` naming the libudev or sd-event call that failed.
    package init(
        loop: EventLoop,
        subsystem: String,
        handler: @escaping (_ action: HotplugAction, _ sysname: String) -> Void
    ) throws(UdevError) {
        udev = try Udev()
        let monitor = try udev.makeMonitor(subsystem: subsystem)
        self.monitor = monitor
        self.handler = handler
        let fd = udev_monitor_get_fd(monitor)
        do {
            source = try loop.addIO(fd: fd, events: .readable) { [unowned self] _ in self.receive() }
        } catch {
            udev_monitor_unref(monitor)
            throw UdevError(operation: "sd_event_add_io", errno: error.errno)
        }
    }

    deinit {
        source = nil
        udev_monitor_unref(monitor)
    }

    /// One event per wake-up: the fd is level-triggered, so more events wake the loop again, and
    /// a monitor socket that happens to be blocking can never stall the loop.
    private func receive() {
        guard let device = udev_monitor_receive_device(monitor) else { return }
        let action = udev_device_get_action(device).map { String(cString: $0) } ?? ""
        let sysname = udev_device_get_sysname(device).map { String(cString: $0) } ?? ""
        udev_device_unref(device)
        handler(HotplugAction(action), sysname)
    }
}
