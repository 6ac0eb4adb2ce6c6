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

import OrientdTestKit

/// What `iio_info` (libiio 0.24) printed, parsed into devices, channels and attributes.
struct IIOInfoReport {
    /// One channel line (`accel_x:  (input, index: 0, format: le:S16/16>>0)`) and its attributes.
    struct Channel {
        var id: String
        /// The text in parentheses, e.g. `input, index: 0, format: le:S16/16>>0`.
        var details: String
        var attributes: [String: String] = [:]

        /// The scan index, for a buffer-capable device.
        var index: Int? { field("index").flatMap { Int($0) } }
        /// The scan format as libiio prints it (`S` when bits fill the storage word).
        var format: String? { field("format") }

        private func field(_ name: String) -> String? {
            details.split(separator: ",").map { $0.trimmingPrefix(" ") }
                .first { $0.hasPrefix(name + ": ") }
                .map { String($0.dropFirst(name.count + 2)) }
        }
    }

    /// One device line (`iio:device0: accel_3d (label: accel-display) (buffer capable)`) and what follows it.
    struct Device {
        var id: String
        /// Everything after the id: the name, label and capabilities.
        var summary: String
        var channels: [Channel] = []
        var attributes: [String: String] = [:]

        var name: String { String(summary.prefix { $0 != " " }) }
        var isBufferCapable: Bool { summary.hasSuffix("(buffer capable)") }

        /// The channel with this id.
        func channel(_ id: String) -> Channel? { channels.first { $0.id == id } }
    }

    var devices: [Device] = []

    /// The device with this id (`iio:device0`, `trigger0`).
    func device(_ id: String) -> Device? { devices.first { $0.id == id } }

    /// Parses `iio_info`'s output: devices at one tab, channels at three, attributes at four.
    init(_ text: String) {
        var inDeviceAttributes = false
        for line in text.split(separator: "\n") {
            let depth = line.prefix { $0 == "\t" }.count
            let content = line.dropFirst(depth)
            switch depth {
            case 1 where content.hasPrefix("iio:device") || content.hasPrefix("trigger"):
                let colon = content.firstRange(of: ": ")!
                devices.append(
                    Device(id: String(content[..<colon.lowerBound]), summary: String(content[colon.upperBound...]))
                )
                inDeviceAttributes = false
            case 2:
                inDeviceAttributes = content.contains("device-specific attributes found")
            case 3 where content.hasSuffix(")") && content.contains(":  ("):
                let split = content.firstRange(of: ":  (")!
                let channel = Channel(
                    id: String(content[..<split.lowerBound]),
                    details: String(content[split.upperBound...].dropLast())
                )
                devices[devices.count - 1].channels.append(channel)
            case 4 where content.hasPrefix("attr "):
                // "attr  0: raw value: -1000"
                guard let nameStart = content.firstRange(of: ": "), let valueStart = content.firstRange(of: " value: ")
                else { continue }
                let name = String(content[nameStart.upperBound..<valueStart.lowerBound])
                let value = String(content[valueStart.upperBound...])
                if inDeviceAttributes {
                    devices[devices.count - 1].attributes[name] = value
                } else if !devices[devices.count - 1].channels.isEmpty {
                    let last = devices[devices.count - 1].channels.count - 1
                    devices[devices.count - 1].channels[last].attributes[name] = value
                }
            default:
                continue
            }
        }
    }
}
