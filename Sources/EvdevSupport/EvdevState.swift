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
public import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// What an open evdev node answers about the values the kernel holds now, asked with one ioctl each and without
/// libevdev: the one query a node must answer for the sensor it is (`EVIOCGABS` for an accelerometer's axis, `EVIOCGSW`
/// for a switch), and no more. A device whose other queries fail (a node that answers only these, as a recording of
/// one replays them) is read this way.
public enum EvdevState {
    /// One absolute axis as the kernel holds it (`struct input_absinfo`).
    public struct Axis: Sendable, Hashable {
        /// The value now.
        public var value: Int32
        /// The lowest value the device reports.
        public var minimum: Int32
        /// The highest value the device reports.
        public var maximum: Int32
        /// Units per g (an accelerometer) when the driver tells, else 0.
        public var resolution: Int32

        /// The axis at `value` within `minimum`…`maximum`, `resolution` units per g.
        public init(value: Int32, minimum: Int32, maximum: Int32, resolution: Int32) {
            self.value = value
            self.minimum = minimum
            self.maximum = maximum
            self.resolution = resolution
        }
    }

    /// The codes of the accelerometer axes, x, y and z (`ABS_X`, `ABS_Y`, `ABS_Z`).
    public static let accelerometerAxes = (x: UInt32(ABS_X), y: UInt32(ABS_Y), z: UInt32(ABS_Z))
    /// The code of a proximity sensor's switch (`SW_FRONT_PROXIMITY`): on while something is near the front.
    public static let frontProximity = UInt32(SW_FRONT_PROXIMITY)
    /// The event type of a switch (`EV_SW`).
    public static let switchEvent = UInt16(EV_SW)

    /// The absolute axis `code` of the node (`EVIOCGABS(code)`).
    /// - Throws: the ioctl's `errno` (`ENOTTY` or `EINVAL` for a node without the axis).
    public static func axis(_ code: UInt32, of descriptor: FileDescriptor) throws(Errno) -> Axis {
        var info = input_absinfo()
        // EVIOCGABS(code): _IOR('E', 0x40 + code, struct input_absinfo).
        let request = read(number: 0x40 + UInt(code), size: MemoryLayout<input_absinfo>.size)
        _ = try valueOrErrno { ioctl(descriptor.rawValue, request, &info) }
        return Axis(value: info.value, minimum: info.minimum, maximum: info.maximum, resolution: info.resolution)
    }

    /// Whether the switch `code` of the node is on now (`EVIOCGSW`, the state of every switch as a bit mask).
    /// - Throws: the ioctl's `errno`.
    public static func switchIsOn(_ code: UInt32, of descriptor: FileDescriptor) throws(Errno) -> Bool {
        // SW_MAX is 0x10: every switch fits in one word, which the kernel fills in the machine's byte order.
        var bits: UInt64 = 0
        // EVIOCGSW(len): _IOC(_IOC_READ, 'E', 0x1b, len).
        let request = read(number: 0x1b, size: MemoryLayout<UInt64>.size)
        _ = try valueOrErrno { ioctl(descriptor.rawValue, request, &bits) }
        return bits >> UInt64(code) & 1 == 1
    }

    /// An `_IOC(_IOC_READ, 'E', number, size)` request.
    private static func read(number: UInt, size: Int) -> UInt {
        UInt(2) << 30 | UInt(size) << 16 | UInt(0x45) << 8 | number
    }
}
