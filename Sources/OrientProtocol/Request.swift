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

public import OrientationCore

/// A request of PROTOCOL.md: `{"id": 7, "method": "lock", "params": {"mask": "landscape"}}`.
public struct Request: Sendable, Hashable {
    /// The methods of PROTOCOL.md.
    public enum Method: String, Sendable, Hashable, CaseIterable {
        case hello
        case get
        case begin
        case end
        case lock
        case unlock
        case constrain
        case tabletMode = "tablet-mode"
        case status

        /// Whether only controllers may call it.
        public var needsController: Bool {
            self == .lock || self == .unlock || self == .constrain || self == .tabletMode
        }
    }

    /// What `tablet-mode` sets: a manual tablet mode that wins over the switch and the hinge, or `auto` to give the
    /// decision back to them.
    public enum TabletModeSetting: String, Sendable, Hashable, CaseIterable {
        /// Tablet mode, whatever the switch and the hinge say.
        case on
        /// Laptop mode, whatever the switch and the hinge say.
        case off
        /// The switch, else the hinge, decides.
        case auto

        /// The manual tablet mode it sets: true, false, or nil for `auto`.
        public var manualTabletMode: Bool? {
            switch self {
            case .on: true
            case .off: false
            case .auto: nil
            }
        }
    }

    /// What `lock` locks.
    public enum LockTarget: Sendable, Hashable {
        /// `{}`: the current interface orientation.
        case current
        /// `{"orientation": "portrait"}`.
        case orientation(InterfaceOrientation)
        /// `{"mask": "landscape"}`.
        case mask(InterfaceOrientationMask)
    }

    /// The longest `holder` a `constrain` may name, in characters.
    public static let holderLimit = 200

    /// The parameters, by method.
    public enum Parameters: Sendable, Hashable {
        case none
        case lock(LockTarget)
        /// nil removes this connection's constraint. `holder` names what the constraint is for (`app mpv`,
        /// the command a launcher runs), for `status`; at most ``Request/holderLimit`` characters.
        case constrain(InterfaceOrientationMask?, holder: String? = nil)
        case tabletMode(TabletModeSetting)
    }

    /// Echoed in the reply; optional.
    public var id: RequestID?
    /// What to do.
    public var method: Method
    /// How.
    public var parameters: Parameters

    /// A request from its parts.
    public init(id: RequestID? = nil, method: Method, parameters: Parameters = .none) {
        self.id = id
        self.method = method
        self.parameters = parameters
    }

    /// The request as one JSON line, ending in a newline, as a client sends it.
    public var line: String {
        var fields: [String] = []
        if let id { fields.append("\"id\": \(JSONText.encode(id))") }
        fields.append("\"method\": \"\(method.rawValue)\"")
        switch parameters {
        case .none:
            break
        case .lock(.current):
            fields.append("\"params\": {}")
        case .lock(.orientation(let orientation)):
            fields.append("\"params\": {\"orientation\": \"\(orientation.wireName)\"}")
        case .lock(.mask(let mask)):
            fields.append("\"params\": {\"mask\": \(JSONText.names(mask))}")
        case .constrain(let mask, let holder):
            let named = holder.map { ", \"holder\": \(JSONText.quote($0))" } ?? ""
            fields.append("\"params\": {\"mask\": \(mask.map(JSONText.names) ?? "null")\(named)}")
        case .tabletMode(let setting):
            fields.append("\"params\": {\"mode\": \"\(setting.rawValue)\"}")
        }
        return "{" + fields.joined(separator: ", ") + "}\n"
    }
}
