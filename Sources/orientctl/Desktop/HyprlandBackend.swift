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

import FoundationEssentials
import OrientProtocol
import OrientationCore

/// Hyprland: one `hyprctl --batch` that sets the monitor's transform (keeping its mode, position and
/// scale, read from `hyprctl monitors -j`) and the touch and tablet transforms.
struct HyprlandBackend: DisplayBackend {
    /// The monitor to turn; nil: the built-in panel of `hyprctl monitors -j`.
    var output: String?

    /// A monitor as `hyprctl monitors -j` describes it.
    struct Monitor: Decodable {
        var name: String
        var width: Int
        var height: Int
        var refreshRate: Double
        var x: Int
        var y: Int
        var scale: Double
        var disabled: Bool?

        /// The `monitor` keyword's value with this monitor's settings and `transform`:
        /// `eDP-1,2560x1600@165,0x0,1.6,transform,1`.
        func keyword(transform: Int) -> String {
            let mode = "\(width)x\(height)@\(Self.decimal(refreshRate, places: 3))"
            return "\(name),\(mode),\(x)x\(y),\(Self.decimal(scale, places: 6)),transform,\(transform)"
        }

        /// `value` rounded to `places` decimals, without trailing zeros (60.000999 → 60.001, 1.5 → 1.5).
        static func decimal(_ value: Double, places: Int) -> String {
            var factor = 1
            for _ in 0..<places { factor *= 10 }
            let scaled = Int((abs(value) * Double(factor)).rounded())
            var text = String(scaled / factor)
            var fraction = String(scaled % factor)
            fraction = String(repeating: "0", count: places - fraction.count) + fraction
            while fraction.last == "0" { fraction.removeLast() }
            if !fraction.isEmpty { text += "." + fraction }
            return (value < 0 && scaled != 0 ? "-" : "") + text
        }
    }

    func plan(for state: OrientationState, rotation: PanelRotation) async -> ApplyPlan {
        var plan = ApplyPlan()
        let monitor: Monitor
        do throws(QueryFailure) {
            monitor = try await self.monitor()
        } catch {
            plan.failures.append(error.message)
            return plan
        }
        let transform = rotation.waylandTransform
        let batch = [
            "keyword monitor \(monitor.keyword(transform: transform))",
            "keyword input:touchdevice:transform \(transform)",
            "keyword input:tablet:transform \(transform)",
        ]
        plan.commands.append(
            ExternalCommand(arguments: ["hyprctl", "--batch", batch.joined(separator: " ; ")], success: .hyprctlOK)
        )
        return plan
    }

    private func monitor() async throws(QueryFailure) -> Monitor {
        let text = try await query(["hyprctl", "monitors", "-j"])
        let monitors: [Monitor]
        do {
            monitors = try JSONDecoder().decode([Monitor].self, from: Data(text.utf8))
                .filter { !($0.disabled ?? false) }
        } catch {
            throw QueryFailure(message: "cannot read the answer of 'hyprctl monitors -j': \(error)")
        }
        var name = output ?? ""
        if output == nil { name = try Self.builtInOutput(among: monitors.map(\.name), from: "hyprctl monitors") }
        guard let monitor = monitors.first(where: { $0.name == name }) else {
            throw QueryFailure(
                message:
                    "hyprctl monitors has no monitor \(name) (it has \(monitors.map(\.name).joined(separator: ", ")))"
            )
        }
        return monitor
    }
}
