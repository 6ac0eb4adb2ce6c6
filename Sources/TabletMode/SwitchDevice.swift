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

import CEvdev
import EvdevSupport
import EventLoop
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// One input device with a tablet-mode switch (`SW_TABLET_MODE`): its open node (``EvdevNode``, the non-blocking fd
/// and libevdev handle), watched by the loop. The fd wakes the loop only when the device sends events.
final class SwitchDevice {
    /// The udev name (`event5`).
    let sysname: String
    /// The device node (`/dev/input/event5`).
    let devnode: String
    /// The device's name (`Intel HID switches`).
    let name: String
    /// Whether the switch reads tablet mode, as of the last event read.
    private(set) var isTabletMode: Bool

    private let node: EvdevNode
    private var source: IOSource?

    /// What reading the device's events came to.
    enum ReadOutcome {
        /// Events were read (the switch may or may not have changed).
        case read
        /// The device went away or failed; it is closed.
        case closed(SwitchError)
    }

    /// Opens `devnode` (``EvdevNode``), and watches it if it has a tablet-mode switch.
    /// - Parameters:
    ///   - onRead: Runs on the loop after the device's events were read, or after it closed.
    /// - Returns: nil when the device has no `SW_TABLET_MODE` (a lid switch, a keyboard), or is orientd's own
    ///   ``VirtualTabletSwitch``.
    /// - Throws: ``SwitchError`` when the node cannot be opened or read.
    static func open(
        sysname: String,
        devnode: String,
        loop: EventLoop,
        onRead: @escaping (SwitchDevice, ReadOutcome) -> Void
    ) throws(SwitchError) -> SwitchDevice? {
        let node: EvdevNode
        do {
            node = try EvdevNode(opening: devnode)
        } catch {
            throw SwitchError(error.operation, device: devnode, errno: error.errno)
        }
        let name = libevdev_get_name(node.handle).map { String(cString: $0) }
        guard libevdev_has_event_code(node.handle, UInt32(EV_SW), UInt32(SW_TABLET_MODE)) == 1,
            !VirtualTabletSwitch.isOwnDevice(name: name)
        else {
            return nil
        }
        let switchDevice = SwitchDevice(sysname: sysname, node: node)
        do {
            switchDevice.source = try loop.addIO(fd: node.descriptor.rawValue, events: .readable) {
                [unowned switchDevice] events in
                onRead(switchDevice, switchDevice.readEvents(events))
            }
        } catch {
            throw SwitchError("sd_event_add_io", device: devnode, errno: error.errno)
        }
        return switchDevice
    }

    private init(sysname: String, node: EvdevNode) {
        self.sysname = sysname
        devnode = node.path
        self.node = node
        name = libevdev_get_name(node.handle).map { String(cString: $0) } ?? sysname
        isTabletMode = libevdev_get_event_value(node.handle, UInt32(EV_SW), UInt32(SW_TABLET_MODE)) != 0
    }

    deinit {
        // The source goes before the node closes the descriptor it watches.
        source = nil
    }

    /// Reads every pending event (`libevdev_next_event`), so that libevdev's copy of the switch state is current.
    /// After `SYN_DROPPED` (the kernel's buffer overflowed) it takes the resynchronisation events, which bring
    /// the state the kernel holds now.
    private func readEvents(_ events: IOEvents) -> ReadOutcome {
        var event = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        while true {
            let result = retryingInterrupts(.negatedErrno) { libevdev_next_event(node.handle, flags, &event) }
            if result == Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue) {
                continue
            } else if result == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
                flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
            } else if result == -EAGAIN {
                if flags == LIBEVDEV_READ_FLAG_NORMAL.rawValue { break }
                flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
            } else {
                return stop(SwitchError("libevdev_next_event", device: devnode, errno: Errno(result)))
            }
        }
        if !events.isDisjoint(with: [.hangUp, .error]) {
            return stop(SwitchError("poll", device: devnode, errno: Errno(ENODEV)))
        }
        isTabletMode = libevdev_get_event_value(node.handle, UInt32(EV_SW), UInt32(SW_TABLET_MODE)) != 0
        return .read
    }

    /// Stops watching the fd (it stays open until the device is released).
    private func stop(_ error: SwitchError) -> ReadOutcome {
        source = nil
        return .closed(error)
    }
}
