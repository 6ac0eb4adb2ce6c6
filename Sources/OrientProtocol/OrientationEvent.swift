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

/// An event of PROTOCOL.md: `{"event": "device", "previous": "portrait", "state": {…}}`.
public struct OrientationEvent: Sendable, Hashable, Codable {
    /// The events, in the order one change sends them.
    public enum Name: String, Sendable, Hashable, Codable, CaseIterable {
        case sensor
        case allowed
        case tabletMode = "tablet-mode"
        case device
        case interface
        case suggestion
    }

    /// Which part of the state changed.
    public var name: Name
    /// The value before, for `device`, `interface`, `sensor` and `suggestion` (nil there: there was none).
    public var previous: String?
    /// The value of `tablet_mode` before, for `tablet-mode` (nil: it was null, nothing told).
    public var previousTabletMode: Bool?
    /// The whole state after the change.
    public var state: OrientationState

    /// An event from its parts.
    public init(name: Name, previous: String? = nil, state: OrientationState) {
        self.name = name
        self.previous = previous
        self.state = state
    }

    /// A `tablet-mode` event: `tablet_mode` was `previous` and is now `state.tabletMode`.
    public init(tabletModeChangedFrom previous: Bool?, state: OrientationState) {
        name = .tabletMode
        previousTabletMode = previous
        self.state = state
    }

    private enum CodingKeys: String, CodingKey {
        case name = "event"
        case previous
        case state
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(Name.self, forKey: .name)
        state = try container.decode(OrientationState.self, forKey: .state)
        if name == .tabletMode {
            previousTabletMode = try container.decodeIfPresent(Bool.self, forKey: .previous)
        } else {
            previous = try container.decodeIfPresent(String.self, forKey: .previous)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        if name == .tabletMode {
            // Always there, null included: the switch may have told nothing before.
            try container.encode(previousTabletMode, forKey: .previous)
        } else if name == .suggestion {
            // Always there, null included: there may have been no suggestion before.
            try container.encode(previous, forKey: .previous)
        } else {
            try container.encodeIfPresent(previous, forKey: .previous)
        }
        try container.encode(state, forKey: .state)
    }
}

extension OrientationEvent: JSONWritable {
    /// Writes the event as its `Encodable` conformance does, keys sorted.
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("event", name.rawValue)
            if name == .tabletMode {
                // Always there, null included, as the `Encodable` conformance writes it.
                json.member("previous", previousTabletMode)
            } else if name == .suggestion {
                json.member("previous", previous)
            } else {
                json.memberIfPresent("previous", previous)
            }
            json.member("state", state)
        }
    }
}
