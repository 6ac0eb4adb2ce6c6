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
import SystemSupport

/// The display connectors the kernel's DRM drivers show in sysfs: `/sys/class/drm/card1-eDP-1` with its
/// `status` (`connected`, `disconnected`, `unknown`). They tell the built-in panel (an eDP, DSI or LVDS
/// connector) and whether an external monitor is plugged in, whatever the desktop.
struct DRMConnectors: Sendable {
    /// One connector.
    struct Connector: Sendable, Hashable {
        /// The kernel's name, which Wayland compositors and most X drivers use too: `eDP-1`, `HDMI-A-1`.
        var name: String
        /// The connector type: `eDP`, `DSI`, `HDMI-A`, `DP`…
        var type: String
        /// Whether `status` says `connected`.
        var connected: Bool
    }

    /// The connector types of built-in panels.
    static let panelTypes: Set<String> = ["eDP", "DSI", "LVDS", "DPI"]
    /// Connector types that are no monitor one plugs in: a virtual machine's display, writeback.
    static let virtualTypes: Set<String> = ["Virtual", "Writeback", "Unknown", "SPI"]

    /// The folder read, `/sys/class/drm` unless the test-only variable `ORIENTCTL_TEST_DRM_DIR` names
    /// an emulated one.
    static var folder: String {
        let override = ProcessInfo.processInfo.environment["ORIENTCTL_TEST_DRM_DIR"] ?? ""
        return override.isEmpty ? "/sys/class/drm" : override
    }

    /// The connectors, in name order; empty when the folder cannot be read (no DRM driver).
    var connectors: [Connector]

    /// Reads the connectors of `folder`: its entries `cardN-TYPE-INDEX` with a `status` file.
    init(folder: String = Self.folder) {
        var found: [Connector] = []
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            // `card1-eDP-1`, `card0-HDMI-A-2`; `card1` and `renderD128` are devices, not connectors.
            guard entry.hasPrefix("card"), let dash = entry.firstIndex(of: "-") else { continue }
            let name = String(entry[entry.index(after: dash)...])
            guard let typeEnd = name.lastIndex(of: "-"), typeEnd > name.startIndex,
                let status = Self.read(folder + "/" + entry + "/status")
            else { continue }
            found.append(Connector(name: name, type: String(name[..<typeEnd]), connected: status == "connected"))
        }
        connectors = found.sorted { $0.name < $1.name }
    }

    /// The built-in panels that are connected.
    var panels: [Connector] {
        connectors.filter { $0.connected && Self.panelTypes.contains($0.type) }
    }

    /// The external monitors that are connected (any connector but a panel's or a virtual one).
    var externalMonitors: [Connector] {
        connectors.filter {
            $0.connected && !Self.panelTypes.contains($0.type) && !Self.virtualTypes.contains($0.type)
        }
    }

    /// The output among `names` (a compositor's) that is `connector`: the same name (`eDP-1`), the same
    /// without dashes (`eDP1`, as the intel X driver says), else the only one of its type (`eDP`, as the
    /// amdgpu X driver says, counting from 0).
    static func output(among names: [String], for connector: Connector) -> String? {
        if names.contains(connector.name) { return connector.name }
        func plain(_ text: String) -> String { text.lowercased().filter { $0 != "-" } }
        if let same = names.first(where: { plain($0) == plain(connector.name) }) { return same }
        let type = plain(connector.type)
        let ofType = names.filter { name in
            let rest = plain(name)
            return rest.hasPrefix(type) && rest.dropFirst(type.count).allSatisfy(\.isNumber)
        }
        return ofType.count == 1 ? ofType[0] : nil
    }

    private static func read(_ path: String) -> String? {
        guard let bytes = try? FileDescriptor.contents(ofFile: path) else { return nil }
        return String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
    }
}
