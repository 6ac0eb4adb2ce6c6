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

/// Reads a proximity sensor of the input subsystem (a switch, `SW_FRONT_PROXIMITY`, as phones' sensors behind
/// gpio-keys report it) while a ``ClaimedSensor`` runs on one, as iio-sensor-proxy's input proximity driver does: the
/// switch's state is asked once when the node opens (`EVIOCGSW`, ``EvdevState``), then the node is watched by the
/// event loop and each `EV_SW` `SW_FRONT_PROXIMITY` event the kernel sends is a reading (1 near, 0 far).
///
/// Only the switch's own query and the events are asked of the node, so a node that answers nothing else (a
/// recording of iio-sensor-proxy's driver) is read too. Reading allocates nothing: the events go into a buffer made
/// once. Stopping closes the node.
final class ProximitySwitchCapture {
    /// The most events one read takes.
    private static let eventsPerRead = 16
    private let devnode: String
    private unowned let owner: ClaimedSensor
    private var file: FileDescriptor?
    private var source: IOSource?
    /// The events read.
    private var reader = RecordReader(recordSize: MemoryLayout<input_event>.stride, recordsPerRead: eventsPerRead)
    /// The switch's state when the node was opened: 1 near, 0 far.
    let initial: Double

    /// Opens the node, asks the switch's state and watches the node.
    /// - Throws: ``SensorError`` naming the step that failed; nothing stays open then.
    init(devnode: String, loop: EventLoop, owner: ClaimedSensor) throws(SensorError) {
        self.devnode = devnode
        self.owner = owner
        let file: FileDescriptor
        do throws(Errno) {
            file = try FileDescriptor.open(devnode, O_RDONLY | O_NONBLOCK)
        } catch {
            throw SensorError.call("open", device: devnode, errno: error)
        }
        do throws(Errno) {
            initial = try EvdevState.switchIsOn(EvdevState.frontProximity, of: file) ? 1 : 0
        } catch {
            file.close()
            throw SensorError.call("ioctl EVIOCGSW", device: devnode, errno: error)
        }
        self.file = file
        do {
            source = try loop.addIO(fd: file.rawValue, events: .readable) { [unowned self] _ in self.drain() }
        } catch {
            stop()
            throw SensorError.call("sd_event_add_io", device: devnode, errno: error.errno)
        }
    }

    deinit {
        stop()
    }

    /// Stops watching and closes the node. Safe to call twice.
    func stop() {
        source = nil
        file?.close()
        file = nil
    }

    /// Reads until the node would block, and hands on the switch's last state among the events read.
    private func drain() {
        guard let file else { return }
        var last: Double?
        let outcome = reader.drain(file) { record in
            let event = record.loadUnaligned(as: input_event.self)
            if event.type == EvdevState.switchEvent, UInt32(event.code) == EvdevState.frontProximity {
                last = event.value == 0 ? 0 : 1
            }
        }
        if let failure = outcome.failure(of: "read", device: devnode) {
            owner.captureFailed(failure)
            return
        }
        if let last { owner.captured(last) }
    }
}
