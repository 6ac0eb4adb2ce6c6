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

import OrientClient
import OrientProtocol
import OrientationCore

extension StatusReport {
    /// The report for people: one `name: value` line per item, the sensor's details indented.
    var textBlock: String {
        var lines: [(String, String)] = [
            ("orientd", "\(version), up \(Self.duration(uptime))"),
            ("state", state.stateLine),
            ("allowed", OrientationState.list(state.allowed)),
            (
                "suggestion",
                state.suggestion.map { "\($0.wireName) ('orientctl rotate' locks it)" }
                    ?? (state.lock == nil ? "none (unlocked)" : "none")
            ),
            ("sensor", sensor.status.rawValue),
        ]
        lines += Self.detailLines(sensor)
        if let tabletMode {
            lines += Self.tabletModeLines(tabletMode, state: state)
        }
        if let baseSensor {
            lines.append(("base sensor", baseSensor.status.rawValue + " (the hinge angle)"))
            lines += Self.detailLines(baseSensor)
        }
        lines.append(
            ("clients", "\(clients) connected, \(generatingConnections) generating (count \(generationTotal))")
        )
        if let constraints {
            lines.append(("constraints", constraints.isEmpty ? "none" : String(constraints.count)))
            lines += constraints.map { constraint in
                var who = constraint.command ?? "a client"
                if let pid = constraint.pid { who += " (pid \(pid))" }
                if let holder = constraint.holder { who += " for " + holder }
                return ("  " + constraint.mask.joined(separator: ","), who)
            }
        }
        if let bus {
            let claiming =
                bus.clients.count == 1 ? "1 bus client claiming" : "\(bus.clients.count) bus clients claiming"
            let served = bus.owned ? "\(bus.name) owned, \(claiming)" : "\(bus.name) not owned: \(bus.problem ?? "")"
            lines.append(("d-bus", served))
            if let sensors = bus.sensors {
                lines.append(("  serves", sensors.isEmpty ? "no sensor found" : sensors.joined(separator: ", ")))
            }
            lines += bus.clients.map { client in
                let process = [client.command, client.pid.map { "pid \($0)" }].compactMap { $0 }
                let claims = client.claims.joined(separator: ", ")
                return ("  " + client.name, process.isEmpty ? claims : "\(claims) (\(process.joined(separator: ", ")))")
            }
        }
        let width = (lines.map(\.0.count).max() ?? 0) + 2
        return lines.map { name, value in
            (name + ":").padding(to: width) + value
        }.joined(separator: "\n")
    }

    /// A sensor's details, indented: device, driver, location, mode, rate, calibration, counters.
    private static func detailLines(_ sensor: Sensor) -> [(String, String)] {
        let details: [(String, String?)] = [
            ("device", sensor.device),
            ("driver", sensor.driver),
            ("location", sensor.location),
            ("mode", sensor.mode.map { $0 + (sensor.fellBack ? " (fell back: the buffer delivered nothing)" : "") }),
            ("rate", "\(Self.number(sensor.rate)) Hz"),
            ("scale", sensor.scale.map { $0.map(Self.number).joined(separator: " ") }),
            ("offset", sensor.offset.map { $0.map(Self.number).joined(separator: " ") }),
            ("matrix", sensor.matrix.map { $0 + (sensor.matrixSource.map { " (from \($0))" } ?? "") }),
            ("samples read", String(sensor.samplesRead)),
            ("last error", sensor.lastError ?? "none"),
        ]
        let axes = (sensor.axes ?? []).map { ("  axes", $0) }
        return details.compactMap { name, value in value.map { ("  " + name, $0) } } + axes
    }

    /// `tablet mode:` with where it comes from and what it does to rotation, then one indented line per switch, and
    /// one when the virtual switch keeps the sensors on.
    private static func tabletModeLines(_ report: TabletMode, state: OrientationState) -> [(String, String)] {
        let source =
            switch state.tabletModeSource {
            case .manual: " (set by hand)"
            case .switch: " (from the switch)"
            case .hinge: " (from the hinge" + (state.hinge.map { " at \(OrientationState.degrees($0))°)" } ?? ")")
            case nil: ""
            }
        let mode =
            state.tabletMode.map { ($0 ? "tablet" : "laptop") + source }
            ?? "unknown (no switch, the hinge has not decided)"
        let effect =
            if !report.followsDevice {
                "the interface stays natural (AutoRotate=tablet-mode)"
            } else if report.autoRotate == "tablet-mode" && state.tabletMode == nil {
                "rotates as with AutoRotate=always"
            } else {
                "the interface follows the device (AutoRotate=\(report.autoRotate))"
            }
        let listening: [(String, String)] =
            report.virtualSwitchKeepsSensorsOn
            ? [("  virtual switch", "keeps the sensors on to read the hinge (VirtualTabletSwitch=no stops that)")] : []
        return [("tablet mode", "\(mode); \(effect)")]
            + report.switches.map { ("  switch", "\($0.device) \($0.name): \($0.tabletMode ? "tablet" : "laptop")") }
            + listening
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    private static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.down))
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        if hours > 0 { return "\(hours)h \(minutes)m \(rest)s" }
        if minutes > 0 { return "\(minutes)m \(rest)s" }
        return "\(rest)s"
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
