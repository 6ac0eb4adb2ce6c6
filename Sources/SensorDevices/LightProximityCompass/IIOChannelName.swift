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

/// The sysfs names of one channel of an IIO device, as the kernel forms them (Documentation/ABI/testing/
/// sysfs-bus-iio): `in_<type>[<index>][_<modifier>]_<attribute>` for the channel's own attributes, and the same
/// attribute shared by every channel of the type (`in_<type>_<attribute>`), of the direction (`in_<attribute>`) or of
/// the device (`<attribute>`). A driver may index a channel (`in_proximity0_raw`, `in_illuminance0_input`) and still
/// share its scale or near level by type (`in_proximity_nearlevel`).
struct IIOChannelName: Hashable, Sendable {
    /// The channel type, such as `illuminance` or `proximity`.
    let type: String
    /// The channel's index, nil for a channel that has none.
    let index: Int?
    /// The modifier, such as `both` in `in_intensity_both_raw`; nil for none.
    let modifier: String?

    /// The highest index looked for: devices with a few channels of one type number them from 0.
    static let highestIndex = 7

    /// The channel's forms to look for, in order: without an index, then indexed from 0.
    static func forms(_ type: String, modifier: String? = nil) -> [IIOChannelName] {
        [IIOChannelName(type: type, index: nil, modifier: modifier)]
            + (0...highestIndex).map { IIOChannelName(type: type, index: $0, modifier: modifier) }
    }

    /// The channel's own attribute `postfix`, such as `in_proximity0_raw`.
    func attribute(_ postfix: String) -> String {
        "in_" + type + (index.map { String($0) } ?? "") + (modifier.map { "_" + $0 } ?? "") + "_" + postfix
    }

    /// The names under which the channel's attribute `postfix` may be found, its own first, then shared by type, by
    /// direction and by the device.
    func shared(_ postfix: String) -> [String] {
        var names: [String] = []
        for name in [attribute(postfix), "in_" + type + "_" + postfix, "in_" + postfix, postfix]
        where !names.contains(name) {
            names.append(name)
        }
        return names
    }

    /// The first of the attribute's names (``shared(_:)``) for which `read` has a value, and that value.
    func value<Value>(of postfix: String, _ read: (String) -> Value?) -> Value? {
        for name in shared(postfix) {
            if let value = read(name) { return value }
        }
        return nil
    }
}
