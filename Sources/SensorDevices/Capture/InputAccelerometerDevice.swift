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
///
/// A node that libevdev cannot take (it answers the axes' `EVIOCGABS` and not the queries of the device's events, as
/// iio-sensor-proxy's recorded input accelerometer) is read as iio-sensor-proxy reads every input accelerometer: the
/// axes' values with `EVIOCGABS` (``EvdevState``), at each tick of a timer at the sensor's rate.
final class InputAccelerometerDevice {
    /// The device node.
    let devnode: String
    /// The scale: from the device's resolution when it has one.
    let scale: InputAccelerometerScale
    /// Counts to m/s² in the panel frame.
    let calibration: Calibration

    /// How the node is read.
    private enum Reader {
        /// Through libevdev, woken by the kernel's events.
        case events(EvdevNode)
        /// With `EVIOCGABS`, on a timer; the descriptor is closed with the device.
        case axes(FileDescriptor)
    }

    private let reader: Reader
    private let loop: EventLoop
    private unowned let owner: InputAccelerometerSensor
    /// The source that wakes the device: the node's fd, or the timer of a node read with `EVIOCGABS`; nil once
    /// stopped.
    private var source: AnyObject?
    /// Whether the events carry CLOCK_MONOTONIC times (`EVIOCSCLOCKID`): a reading's time is then its `SYN_REPORT`'s.
    private let eventTimes: Bool
    /// The axes' limits, for telling a clipped reading.
    private let lower: (Int64, Int64, Int64)
    private let upper: (Int64, Int64, Int64)

    /// Opens `accelerometer`'s node (``EvdevNode``) and watches it; a node libevdev cannot take but whose axes answer
    /// `EVIOCGABS` is read every `pollInterval` seconds instead.
    /// - Throws: ``SensorError`` when the node cannot be opened or read, or has no `ABS_X`, `ABS_Y` and `ABS_Z`.
    init(
        _ accelerometer: Accelerometer,
        matrix: MountMatrix,
        pollInterval: Double,
        loop: EventLoop,
        owner: InputAccelerometerSensor
    ) throws(SensorError) {
        let devnode = accelerometer.inputNode ?? "/dev/input/\(accelerometer.id)"
        let reader: Reader
        let axes: (x: EvdevState.Axis, y: EvdevState.Axis, z: EvdevState.Axis)
        var monotonic = false
        do {
            let node = try EvdevNode(opening: devnode)
            let handle = node.handle
            // The events' times on the loop's clock; when the kernel refuses, the loop's time of their reading is used.
            monotonic = libevdev_set_clock_id(handle, CLOCK_MONOTONIC) == 0
            let codes = [ABS_X, ABS_Y, ABS_Z].map { UInt32($0) }
            guard codes.allSatisfy({ libevdev_has_event_code(handle, UInt32(EV_ABS), $0) == 1 }),
                let x = libevdev_get_abs_info(handle, codes[0])?.pointee,
                let y = libevdev_get_abs_info(handle, codes[1])?.pointee,
                let z = libevdev_get_abs_info(handle, codes[2])?.pointee
            else {
                throw SensorError(
                    .badAttribute,
                    operation: "libevdev_has_event_code",
                    device: devnode,
                    detail: "no ABS_X, ABS_Y and ABS_Z: not an accelerometer"
                )
            }
            func axis(_ info: input_absinfo) -> EvdevState.Axis {
                EvdevState.Axis(
                    value: info.value,
                    minimum: info.minimum,
                    maximum: info.maximum,
                    resolution: info.resolution
                )
            }
            axes = (axis(x), axis(y), axis(z))
            reader = .events(node)
        } catch let error as EvdevNodeError where error.operation == "libevdev_new_from_fd" {
            guard let found = Self.axesOnly(devnode) else {
                throw SensorError.call(error.operation, device: devnode, errno: error.errno, detail: error.advice)
            }
            (reader, axes) = (.axes(found.descriptor), found.axes)
        } catch let error as EvdevNodeError {
            throw SensorError.call(error.operation, device: devnode, errno: error.errno, detail: error.advice)
        } catch let error as SensorError {
            throw error
        } catch {
            throw SensorError.call("open", device: devnode, errno: Errno(EIO))
        }
        self.devnode = devnode
        self.reader = reader
        self.loop = loop
        self.owner = owner
        eventTimes = monotonic
        scale = InputAccelerometerScale.choose(name: accelerometer.name, resolution: axes.x.resolution)
        calibration = scale.calibration(matrix: matrix)
        // A range of 0…0 says nothing: then no reading is clipped.
        func limits(_ axis: EvdevState.Axis) -> (Int64, Int64) {
            axis.minimum < axis.maximum ? (Int64(axis.minimum), Int64(axis.maximum)) : (.min, .max)
        }
        (lower.0, upper.0) = limits(axes.x)
        (lower.1, upper.1) = limits(axes.y)
        (lower.2, upper.2) = limits(axes.z)
        do {
            switch reader {
            case .events(let node):
                source = try loop.addIO(fd: node.descriptor.rawValue, events: .readable) { [unowned self] events in
                    self.readEvents(events)
                }
            case .axes:
                source = try loop.addRepeatingTimer(interval: pollInterval, accuracy: pollInterval / 10) {
                    [unowned self] in self.emit(at: self.loop.now)
                }
            }
        } catch {
            throw SensorError.call("sd_event_add_io", device: devnode, errno: error.errno)
        }
    }

    /// The node at `devnode` opened plainly, with its three axes, when each answers `EVIOCGABS`; nil otherwise (the
    /// node is then closed again).
    private static func axesOnly(
        _ devnode: String
    ) -> (descriptor: FileDescriptor, axes: (x: EvdevState.Axis, y: EvdevState.Axis, z: EvdevState.Axis))? {
        guard let descriptor = try? FileDescriptor.open(devnode, O_RDONLY | O_NONBLOCK) else { return nil }
        let codes = EvdevState.accelerometerAxes
        guard let x = try? EvdevState.axis(codes.x, of: descriptor),
            let y = try? EvdevState.axis(codes.y, of: descriptor),
            let z = try? EvdevState.axis(codes.z, of: descriptor)
        else {
            descriptor.close()
            return nil
        }
        return (descriptor, (x, y, z))
    }

    deinit {
        // The source goes before the node closes the descriptor it watches.
        source = nil
        if case .axes(let descriptor) = reader { descriptor.close() }
    }

    /// Stops watching the fd, or polling (the fd closes when the device is released).
    func stop() {
        source = nil
    }

    /// The values the kernel holds now (libevdev's, as of the open or the last event read; or asked with `EVIOCGABS`)
    /// as one reading, handed to the owner; nothing when they are all 0 (a driver that has not measured yet).
    func emitCurrent() {
        emit(at: loop.now)
    }

    /// Reads every pending event (the hot path: no allocation); one reading at each `SYN_REPORT`, and one after a
    /// resynchronisation.
    private func readEvents(_ events: IOEvents) {
        guard case .events(let node) = reader else { return }
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
        let x: Int64
        let y: Int64
        let z: Int64
        switch reader {
        case .events(let node):
            x = Int64(libevdev_get_event_value(node.handle, UInt32(EV_ABS), UInt32(ABS_X)))
            y = Int64(libevdev_get_event_value(node.handle, UInt32(EV_ABS), UInt32(ABS_Y)))
            z = Int64(libevdev_get_event_value(node.handle, UInt32(EV_ABS), UInt32(ABS_Z)))
        case .axes(let descriptor):
            let codes = EvdevState.accelerometerAxes
            do throws(Errno) {
                x = Int64(try EvdevState.axis(codes.x, of: descriptor).value)
                y = Int64(try EvdevState.axis(codes.y, of: descriptor).value)
                z = Int64(try EvdevState.axis(codes.z, of: descriptor).value)
            } catch {
                fail(SensorError.call("ioctl EVIOCGABS", device: devnode, errno: error))
                return
            }
        }
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
