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
import OrientationCore
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// An accelerometer of the input subsystem, open: its node (``EvdevNode``, the non-blocking fd and libevdev handle),
/// watched by the loop while its ``InputAccelerometerSensor`` captures. Opening it is what makes a polled input driver
/// (lis3lv02d) start measuring, and closing it stops it; the fd wakes the loop only when the kernel sends events.
///
/// The kernel sends the axes that changed (`EV_ABS` `ABS_X`, `ABS_Y`, `ABS_Z`) and then `SYN_REPORT`; at each
/// `SYN_REPORT` the three values libevdev holds are one reading. After `SYN_DROPPED` (the kernel's buffer overflowed)
/// libevdev's resynchronisation brings the values the kernel holds now, and they are one reading too. A reading's time
/// is its `SYN_REPORT`'s, on CLOCK_MONOTONIC (`EVIOCSCLOCKID`), like the loop's.
final class InputAccelerometerDevice {
    /// The device node.
    let devnode: String
    /// The scale: from the device's resolution when it has one.
    let scale: InputAccelerometerScale
    /// Counts to m/s² in the panel frame.
    let calibration: Calibration

    private let node: EvdevNode
    private let loop: EventLoop
    private unowned let owner: InputAccelerometerSensor
    private var source: IOSource?
    /// Whether the events carry CLOCK_MONOTONIC times (`EVIOCSCLOCKID`): a reading's time is then its `SYN_REPORT`'s.
    private let eventTimes: Bool
    /// The axes' limits, for telling a clipped reading.
    private let lower: (Int64, Int64, Int64)
    private let upper: (Int64, Int64, Int64)

    /// Opens `accelerometer`'s node (``EvdevNode``) and watches it.
    /// - Throws: ``SensorError`` when the node cannot be opened or read, or has no `ABS_X`, `ABS_Y` and `ABS_Z`.
    init(
        _ accelerometer: Accelerometer,
        matrix: MountMatrix,
        loop: EventLoop,
        owner: InputAccelerometerSensor
    ) throws(SensorError) {
        let devnode = accelerometer.inputNode ?? "/dev/input/\(accelerometer.id)"
        let node: EvdevNode
        do {
            node = try EvdevNode(opening: devnode)
        } catch {
            throw SensorError.call(error.operation, device: devnode, errno: error.errno, detail: error.advice)
        }
        let handle = node.handle
        // The events' times on the loop's clock; when the kernel refuses, the loop's time of their reading is used.
        let monotonic = libevdev_set_clock_id(handle, CLOCK_MONOTONIC) == 0
        let axes = [ABS_X, ABS_Y, ABS_Z].map { UInt32($0) }
        guard axes.allSatisfy({ libevdev_has_event_code(handle, UInt32(EV_ABS), $0) == 1 }),
            let x = libevdev_get_abs_info(handle, axes[0])?.pointee,
            let y = libevdev_get_abs_info(handle, axes[1])?.pointee,
            let z = libevdev_get_abs_info(handle, axes[2])?.pointee
        else {
            throw SensorError(
                .badAttribute,
                operation: "libevdev_has_event_code",
                device: devnode,
                detail: "no ABS_X, ABS_Y and ABS_Z: not an accelerometer"
            )
        }
        self.devnode = devnode
        self.node = node
        self.loop = loop
        self.owner = owner
        eventTimes = monotonic
        scale = InputAccelerometerScale.choose(name: accelerometer.name, resolution: x.resolution)
        calibration = scale.calibration(matrix: matrix)
        // A range of 0…0 says nothing: then no reading is clipped.
        func limits(_ info: input_absinfo) -> (Int64, Int64) {
            info.minimum < info.maximum ? (Int64(info.minimum), Int64(info.maximum)) : (.min, .max)
        }
        (lower.0, upper.0) = limits(x)
        (lower.1, upper.1) = limits(y)
        (lower.2, upper.2) = limits(z)
        do {
            source = try loop.addIO(fd: node.descriptor.rawValue, events: .readable) { [unowned self] events in
                self.readEvents(events)
            }
        } catch {
            throw SensorError.call("sd_event_add_io", device: devnode, errno: error.errno)
        }
    }

    /// The values the kernel holds for `accelerometer`'s axes now, calibrated: one reading taken with three
    /// `EVIOCGABS` calls (what the kernel answers without measuring anew, and all iio-sensor-proxy asks of the node),
    /// the node closed again before this returns, nothing watched. Nil when the node cannot be opened, has no
    /// `ABS_X`, `ABS_Y` and `ABS_Z`, or holds no usable reading (all 0, as a driver that has not measured yet; or
    /// clipped).
    static func restingReading(_ accelerometer: Accelerometer, matrix: MountMatrix) -> Vector3? {
        let devnode = accelerometer.inputNode ?? "/dev/input/\(accelerometer.id)"
        guard let descriptor = try? FileDescriptor.open(devnode, O_RDONLY | O_NONBLOCK) else { return nil }
        defer { descriptor.close() }
        var axes: [input_absinfo] = []
        for axis in [ABS_X, ABS_Y, ABS_Z] {
            var info = input_absinfo()
            // EVIOCGABS(axis): _IOR('E', 0x40 + axis, struct input_absinfo).
            let request =
                UInt(2) << 30 | UInt(MemoryLayout<input_absinfo>.size) << 16 | UInt(0x45) << 8
                | UInt(0x40 + axis)
            let result = retryingInterrupts(.minusOneAndErrno) { ioctl(descriptor.rawValue, request, &info) }
            guard result == 0 else { return nil }
            axes.append(info)
        }
        guard axes.contains(where: { $0.value != 0 }) else { return nil }
        for info in axes where info.minimum < info.maximum {
            if info.value <= info.minimum || info.value >= info.maximum { return nil }
        }
        let scale = InputAccelerometerScale.choose(name: accelerometer.name, resolution: axes[0].resolution)
        return scale.calibration(matrix: matrix).apply(
            x: Int64(axes[0].value),
            y: Int64(axes[1].value),
            z: Int64(axes[2].value)
        )
    }

    deinit {
        // The source goes before the node closes the descriptor it watches.
        source = nil
    }

    /// Stops watching the fd (it closes when the device is released).
    func stop() {
        source = nil
    }

    /// The values libevdev holds now (the kernel's, as of the open or the last event read) as one reading, handed to
    /// the owner; nothing when they are all 0 (a driver that has not measured yet).
    func emitCurrent() {
        emit(at: loop.now)
    }

    /// Reads every pending event (the hot path: no allocation); one reading at each `SYN_REPORT`, and one after a
    /// resynchronisation.
    private func readEvents(_ events: IOEvents) {
        var event = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        var changed = false
        while source != nil {
            let result = retryingInterrupts(.negatedErrno) { libevdev_next_event(node.handle, flags, &event) }
            if result == Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue) {
                if event.type == UInt16(EV_ABS) {
                    changed = true
                } else if event.type == UInt16(EV_SYN), event.code == UInt16(SYN_REPORT), changed,
                    flags == LIBEVDEV_READ_FLAG_NORMAL.rawValue
                {
                    changed = false
                    let seconds = Double(event.time.tv_sec) + Double(event.time.tv_usec) / 1_000_000
                    emit(at: eventTimes ? seconds : loop.now)
                }
            } else if result == Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue) {
                // SYN_DROPPED: take the kernel's state (the sync events), then one reading of it.
                flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
                changed = true
            } else if result == -EAGAIN {
                if flags == LIBEVDEV_READ_FLAG_NORMAL.rawValue { break }
                flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
                if changed {
                    changed = false
                    emit(at: loop.now)
                }
            } else {
                fail(SensorError.call("libevdev_next_event", device: devnode, errno: Errno(result)))
                return
            }
        }
        if source != nil, !events.isDisjoint(with: [.hangUp, .error]) {
            fail(SensorError(.deviceGone, operation: "poll", device: devnode, errno: Errno(ENODEV)))
        }
    }

    /// One reading of the three axes at `time`, classified and calibrated, to the owner.
    private func emit(at time: Double) {
        let x = Int64(libevdev_get_event_value(node.handle, UInt32(EV_ABS), UInt32(ABS_X)))
        let y = Int64(libevdev_get_event_value(node.handle, UInt32(EV_ABS), UInt32(ABS_Y)))
        let z = Int64(libevdev_get_event_value(node.handle, UInt32(EV_ABS), UInt32(ABS_Z)))
        let quality: ReadingQuality
        if x == 0 && y == 0 && z == 0 {
            quality = .zero
        } else if x <= lower.0 || x >= upper.0 || y <= lower.1 || y >= upper.1 || z <= lower.2 || z >= upper.2 {
            quality = .saturated
        } else {
            quality = .usable
        }
        owner.captured(Sample(time: time, acceleration: calibration.apply(x: x, y: y, z: z)), quality: quality)
    }

    /// Stops watching and tells the owner, at the loop's next turn (never from inside the delivery of a reading).
    private func fail(_ error: SensorError) {
        source = nil
        owner.deviceFailed(error)
    }
}
