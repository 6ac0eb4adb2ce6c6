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

/// What udev says of an input device: whether it is a touch screen, pen, eraser or pad of the panel.
enum PanelInput {
    /// The `Device Node` of an xinput device (`xinput list-props ID`); nil when it has none (XTEST) or
    /// xinput cannot tell.
    static func deviceNode(ofXInput id: String) async -> String? {
        let outcome = await ExternalCommand(arguments: ["xinput", "list-props", id]).run()
        guard outcome.succeeded else { return nil }
        // `\tDevice Node (263):\t"/dev/input/event7"`
        for line in outcome.output.split(separator: "\n") where line.contains("Device Node (") {
            let quoted = line.split(separator: "\"", omittingEmptySubsequences: false)
            if quoted.count >= 3, quoted[1].hasPrefix("/dev/") { return String(quoted[1]) }
        }
        return nil
    }

    /// The udev properties of a device node (`udevadm info --query=property --name=NODE`); nil when udev
    /// cannot tell.
    static func properties(of node: String) async -> [String: String]? {
        let outcome = await ExternalCommand(arguments: ["udevadm", "info", "--query=property", "--name=" + node]).run()
        guard outcome.succeeded else { return nil }
        var properties: [String: String] = [:]
        for line in outcome.output.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            properties[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        return properties
    }

    /// Whether udev's properties describe a touch screen, pen, eraser or pad of the panel: a touch screen
    /// unless `ID_INTEGRATION=external`; a tablet or pad when `ID_INTEGRATION=internal`, or, where udev does
    /// not say, when it is not on USB or Bluetooth (a tablet one plugs in maps to every screen).
    static func isOnPanel(_ properties: [String: String]) -> Bool {
        let integration = properties["ID_INTEGRATION"]
        if properties["ID_INPUT_TOUCHSCREEN"] == "1" { return integration != "external" }
        guard properties["ID_INPUT_TABLET"] == "1" || properties["ID_INPUT_TABLET_PAD"] == "1" else { return false }
        if let integration { return integration == "internal" }
        return !["usb", "bluetooth"].contains(properties["ID_BUS"] ?? "")
    }
}
