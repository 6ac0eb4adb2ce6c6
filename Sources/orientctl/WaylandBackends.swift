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

extension PanelRotation {
    /// The Wayland transform in degrees counter-clockwise, as wlr-randr's `--transform` and niri's
    /// `transform` take it: `normal`, `90`, `180`, `270`.
    var waylandTransformWord: String { self == .degrees0 ? "normal" : String(waylandTransform * 90) }

    /// cosmic-randr's `--transform`, the Wayland transform by another name: `normal`, `rotate90`, `rotate180`,
    /// `rotate270`.
    var cosmicTransform: String { self == .degrees0 ? "normal" : "rotate\(waylandTransform * 90)" }

    /// kscreen-doctor's `rotation`: xrandr's names (KDE's `left` is the Wayland transform 90), `none` for
    /// no rotation.
    var kscreenRotation: String { self == .degrees0 ? "none" : xrandrRotation }
}

/// A backend that turns one output with one command of a tool that can also list the active outputs.
protocol OutputToolBackend: DisplayBackend {
    /// The output to turn; nil: the built-in panel among ``activeOutputs()``.
    var output: String? { get }
    /// What lists the outputs, for reports: `wlr-randr`.
    var source: String { get }
    /// The names of the outputs that are switched on.
    func activeOutputs() async throws(QueryFailure) -> [String]
    /// The command that turns `name` to `rotation`.
    func command(turning name: String, to rotation: PanelRotation) async throws(QueryFailure) -> ExternalCommand
}

extension OutputToolBackend {
    func plan(for state: OrientationState, rotation: PanelRotation) async -> ApplyPlan {
        do throws(QueryFailure) {
            let name: String
            if let output {
                name = output
            } else {
                name = try Self.builtInOutput(among: try await activeOutputs(), from: source)
            }
            return ApplyPlan(commands: [try await command(turning: name, to: rotation)])
        } catch {
            return ApplyPlan(failures: [error.message])
        }
    }

    /// Decodes a tool's JSON answer.
    func decode<Value: Decodable>(_ type: Value.Type, from text: String) throws(QueryFailure) -> Value {
        do {
            return try JSONDecoder().decode(Value.self, from: Data(text.utf8))
        } catch {
            throw QueryFailure(message: "cannot read the answer of \(source): \(error)")
        }
    }
}

/// Any compositor with wlr-output-management (river, labwc, Wayfire, Hyprland, sway):
/// `wlr-randr --output NAME --transform normal|90|180|270`.
struct WlrBackend: OutputToolBackend {
    var output: String?
    var source: String { "wlr-randr" }

    /// The outputs of `wlr-randr`: a line `eDP-1 "BOE 0x0BCA (eDP-1)"` each, then indented lines, one of
    /// them `Enabled: yes` or `Enabled: no`.
    func activeOutputs() async throws(QueryFailure) -> [String] {
        var names: [String] = []
        var current: String?
        for line in try await query(["wlr-randr"]).split(separator: "\n") {
            if let first = line.first, !first.isWhitespace {
                current = line.split(separator: " ").first.map(String.init)
                if let current { names.append(current) }
            } else if let current, line.trimmingPrefix(while: \.isWhitespace) == "Enabled: no" {
                names.removeAll { $0 == current }
            }
        }
        return names
    }

    func command(turning name: String, to rotation: PanelRotation) async throws(QueryFailure) -> ExternalCommand {
        ExternalCommand(arguments: ["wlr-randr", "--output", name, "--transform", rotation.waylandTransformWord])
    }
}

/// niri: `niri msg output NAME transform normal|90|180|270` (counter-clockwise, as niri-ipc says).
struct NiriBackend: OutputToolBackend {
    var output: String?
    var source: String { "niri msg --json outputs" }

    private struct Output: Decodable {
        var name: String
        var currentMode: Int?

        private enum CodingKeys: String, CodingKey {
            case name
            case currentMode = "current_mode"
        }
    }

    /// The outputs of `niri msg --json outputs` (an object of outputs by name) that have a mode.
    func activeOutputs() async throws(QueryFailure) -> [String] {
        let text = try await query(["niri", "msg", "--json", "outputs"])
        return try decode([String: Output].self, from: text).values.filter { $0.currentMode != nil }.map(\.name)
            .sorted()
    }

    func command(turning name: String, to rotation: PanelRotation) async throws(QueryFailure) -> ExternalCommand {
        ExternalCommand(arguments: ["niri", "msg", "output", name, "transform", rotation.waylandTransformWord])
    }
}

/// KDE Plasma 5.27 and 6, Wayland and X11: `kscreen-doctor output.NAME.rotation.none|left|inverted|right`.
/// Plasma turns the touch screen and pen with the output itself.
struct KDEBackend: OutputToolBackend {
    var output: String?
    var source: String { "kscreen-doctor --json" }

    private struct Configuration: Decodable {
        var outputs: [Output]
    }

    private struct Output: Decodable {
        var name: String
        var connected: Bool?
        var enabled: Bool?
    }

    /// The connected, enabled outputs of `kscreen-doctor --json`.
    func activeOutputs() async throws(QueryFailure) -> [String] {
        let text = try await query(["kscreen-doctor", "--json"])
        return try decode(Configuration.self, from: text).outputs
            .filter { ($0.connected ?? true) && ($0.enabled ?? true) }.map(\.name)
    }

    func command(turning name: String, to rotation: PanelRotation) async throws(QueryFailure) -> ExternalCommand {
        ExternalCommand(arguments: ["kscreen-doctor", "output.\(name).rotation.\(rotation.kscreenRotation)"])
    }
}

/// COSMIC: `cosmic-randr mode --transform normal|rotate90|rotate180|rotate270 --refresh HZ NAME WIDTH HEIGHT`,
/// the current mode read from `cosmic-randr list --kdl` (cosmic-randr sets a transform only with a mode).
struct CosmicBackend: DisplayBackend {
    /// The output to turn; nil: the built-in panel among the enabled outputs of `cosmic-randr list --kdl`.
    var output: String?

    /// An output of `cosmic-randr list --kdl` and its current mode.
    struct Head {
        var name: String
        var enabled: Bool
        /// Width, height and refresh rate in mHz of the current mode.
        var mode: (width: Int, height: Int, refresh: Int)?
    }

    /// Reads `output "eDP-1" enabled=#true {` lines and their `mode 2256 1504 59999 current=#true` lines
    /// (KDL 2; `enabled=true` of KDL 1 too).
    static func heads(in text: String) -> [Head] {
        var heads: [Head] = []
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard let first = words.first else { continue }
            if first == "output", words.count >= 2 {
                let name = words[1].trimmingCharacters(of: "\"")
                let enabled = words.contains("enabled=#true") || words.contains("enabled=true")
                heads.append(Head(name: name, enabled: enabled))
            } else if first == "mode", words.count >= 4,
                words.contains("current=#true") || words.contains("current=true"),
                let width = Int(words[1]), let height = Int(words[2]), let refresh = Int(words[3]), !heads.isEmpty
            {
                heads[heads.count - 1].mode = (width, height, refresh)
            }
        }
        return heads
    }

    func plan(for state: OrientationState, rotation: PanelRotation) async -> ApplyPlan {
        do throws(QueryFailure) {
            let heads = Self.heads(in: try await query(["cosmic-randr", "list", "--kdl"]))
            let name: String
            if let output {
                name = output
            } else {
                name = try Self.builtInOutput(among: heads.filter(\.enabled).map(\.name), from: "cosmic-randr list")
            }
            guard let head = heads.first(where: { $0.name == name }), let mode = head.mode else {
                throw QueryFailure(
                    message: "cosmic-randr list --kdl shows no current mode for \(name) "
                        + "(it lists \(heads.map(\.name).joined(separator: ", ")))"
                )
            }
            let refresh = HyprlandBackend.Monitor.decimal(Double(mode.refresh) / 1000, places: 3)
            return ApplyPlan(commands: [
                ExternalCommand(
                    arguments: [
                        "cosmic-randr", "mode", "--transform", rotation.cosmicTransform, "--refresh", refresh, name,
                        String(mode.width), String(mode.height),
                    ]
                )
            ])
        } catch {
            return ApplyPlan(failures: [error.message])
        }
    }
}

extension Substring {
    /// The text without `character` at either end.
    fileprivate func trimmingCharacters(of character: Character) -> String {
        var text = self
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return String(text)
    }
}
