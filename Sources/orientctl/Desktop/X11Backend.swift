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

import IniFormat
import OrientProtocol
import OrientationCore

/// X11: `xrandr --output NAME --rotate R`, and the xinput Coordinate Transformation Matrix on each touch
/// screen and pen. The matrix maps the device to the whole X screen: right for one output.
struct X11Backend: DisplayBackend {
    /// The output to turn; nil: the built-in panel of `xrandr --query`.
    var output: String?
    /// The xinput devices (names or ids); empty: the touch screens and pens of `xinput list --long`.
    var touch: [String]

    static let matrixProperty = "Coordinate Transformation Matrix"

    func plan(for state: OrientationState, rotation: PanelRotation) async -> ApplyPlan {
        var plan = ApplyPlan()
        guard let name = await outputName(output, else: builtInOutput, failingInto: &plan) else { return plan }
        plan.commands.append(
            ExternalCommand(arguments: ["xrandr", "--output", name, "--rotate", rotation.xrandrRotation])
        )
        do throws(QueryFailure) {
            let devices = touch.isEmpty ? try await touchDevices() : touch
            let matrix = rotation.coordinateTransformationMatrix.map(String.init)
            plan.commands += devices.map {
                ExternalCommand(arguments: ["xinput", "set-prop", $0, Self.matrixProperty] + matrix)
            }
        } catch {
            plan.failures.append(error.message)
        }
        return plan
    }

    /// The connected outputs of `xrandr --query`: lines `eDP-1 connected primary 1920x1080+0+0 …`.
    private func builtInOutput() async throws(QueryFailure) -> String {
        let text = try await query(["xrandr", "--query"])
        let connected = text.split(separator: "\n").compactMap { line -> String? in
            guard let first = line.first, !first.isWhitespace else { return nil }
            let words = line.split(separator: " ")
            return words.count > 1 && words[1] == "connected" ? String(words[0]) : nil
        }
        return try Self.builtInOutput(among: connected, from: "xrandr --query")
    }

    /// The ids of the slave pointers of `xinput list --long` that are touch screens, pens, erasers or pads on
    /// the panel. Those with absolute axes or a direct touch class are candidates; udev decides for those
    /// with a device node (``PanelInput``), a test of the name for the others (pens, erasers and touch
    /// screens by name, not touchpads).
    private func touchDevices() async throws(QueryFailure) -> [String] {
        let text = try await query(["xinput", "list", "--long"])
        var candidates: [(id: String, byName: Bool)] = []
        var current: (id: String, name: String, lines: [Substring])?
        func finish() {
            guard let device = current else { return }
            let body = device.lines.joined(separator: "\n")
            let name = device.name.lowercased()
            let directTouch = body.contains("XITouchClass") && body.contains("Touch mode: direct")
            let absolute = body.contains("Mode: absolute")
            guard directTouch || absolute else { return }
            let byName =
                directTouch
                || (!name.contains("touchpad") && ["pen", "stylus", "eraser", "touch"].contains { name.contains($0) })
            candidates.append((device.id, byName))
        }
        for line in text.split(separator: "\n") {
            if let header = Self.header(line) {
                finish()
                current = header.isSlavePointer ? (header.id, header.name, []) : nil
            } else {
                current?.lines.append(line)
            }
        }
        finish()
        var devices: [String] = []
        for candidate in candidates {
            var properties: [String: String]?
            if let node = await PanelInput.deviceNode(ofXInput: candidate.id) {
                properties = await PanelInput.properties(of: node)
            }
            if properties.map(PanelInput.isOnPanel) ?? candidate.byName { devices.append(candidate.id) }
        }
        return devices
    }

    /// A device's first line: `⎜   ↳ ELAN Touchscreen  \tid=10\t[slave  pointer  (2)]`.
    private static func header(_ line: Substring) -> (id: String, name: String, isSlavePointer: Bool)? {
        let fields = line.split(separator: "\t")
        guard fields.count >= 3, fields[1].hasPrefix("id=") else { return nil }
        let name = fields[0].drop { !$0.isLetter && !$0.isNumber }.trimmingWhitespace()
        // `[slave  pointer  (2)]`, `[master keyboard (2)]`, `[floating slave]`.
        let kind = fields[2].filter { $0.isLetter || $0 == " " }.split(separator: " ")
        return (String(fields[1].dropFirst(3)), String(name), kind.contains("slave") && kind.contains("pointer"))
    }
}
