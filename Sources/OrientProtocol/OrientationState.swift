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

/// The state of PROTOCOL.md, sent in replies and with every event.
public struct OrientationState: Sendable, Hashable, Codable {
    /// The device orientation; `unknown` while nobody generates.
    public var device: DeviceOrientation
    /// The interface orientation; `unknown` until the first classification.
    public var interface: InterfaceOrientation
    /// The panel rotation of the interface orientation; nil while it is unknown.
    public var rotation: PanelRotation?
    /// The orientations allowed now.
    public var allowed: InterfaceOrientationMask
    /// The lock, nil when unlocked.
    public var lock: InterfaceOrientationMask?
    /// The sensor's status.
    public var sensor: SensorState
    /// Whether anybody is generating.
    public var generating: Bool
    /// Counts state changes.
    public var seq: UInt64
    /// Whether the convertible is folded as a tablet; nil when nothing tells.
    public var tabletMode: Bool?
    /// Where ``tabletMode`` comes from; nil when nothing tells.
    public var tabletModeSource: TabletModeSource?
    /// The hinge angle between lid and base in degrees, one decimal; nil without a base accelerometer, while
    /// nobody generates, or while the angle cannot be trusted.
    public var hinge: Double?
    /// The rotation suggestion: the interface orientation the device is held in while only the user's lock keeps
    /// the interface from it; nil when there is none.
    public var suggestion: InterfaceOrientation?

    /// A state from its parts.
    public init(
        device: DeviceOrientation,
        interface: InterfaceOrientation,
        rotation: PanelRotation?,
        allowed: InterfaceOrientationMask,
        lock: InterfaceOrientationMask?,
        sensor: SensorState,
        generating: Bool,
        seq: UInt64,
        tabletMode: Bool? = nil,
        tabletModeSource: TabletModeSource? = nil,
        hinge: Double? = nil,
        suggestion: InterfaceOrientation? = nil
    ) {
        self.device = device
        self.interface = interface
        self.rotation = rotation
        self.allowed = allowed
        self.lock = lock
        self.sensor = sensor
        self.generating = generating
        self.seq = seq
        self.tabletMode = tabletMode
        self.tabletModeSource = tabletModeSource
        self.hinge = hinge
        self.suggestion = suggestion
    }

    /// The display transform of the rotation; nil while the interface orientation is unknown.
    public var transform: DisplayTransform? { rotation.map(DisplayTransform.init) }

    private enum CodingKeys: String, CodingKey {
        case device, interface, rotation, transform, allowed, lock, sensor, generating, seq
        case tabletMode = "tablet_mode"
        case tabletModeSource = "tablet_mode_source"
        case hinge
        case suggestion
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(device.wireName, forKey: .device)
        try container.encode(interface.wireName, forKey: .interface)
        if let rotation {
            try container.encode(rotation.degrees, forKey: .rotation)
        } else {
            try container.encodeNil(forKey: .rotation)
        }
        if let transform {
            try container.encode(transform, forKey: .transform)
        } else {
            try container.encodeNil(forKey: .transform)
        }
        try container.encode(allowed.wireNames, forKey: .allowed)
        if let lock {
            try container.encode(lock.wireNames, forKey: .lock)
        } else {
            try container.encodeNil(forKey: .lock)
        }
        try container.encode(sensor, forKey: .sensor)
        try container.encode(generating, forKey: .generating)
        try container.encode(seq, forKey: .seq)
        if let tabletMode {
            try container.encode(tabletMode, forKey: .tabletMode)
        } else {
            try container.encodeNil(forKey: .tabletMode)
        }
        if let tabletModeSource {
            try container.encode(tabletModeSource, forKey: .tabletModeSource)
        } else {
            try container.encodeNil(forKey: .tabletModeSource)
        }
        if let hinge {
            try container.encode(hinge, forKey: .hinge)
        } else {
            try container.encodeNil(forKey: .hinge)
        }
        if let suggestion {
            try container.encode(suggestion.wireName, forKey: .suggestion)
        } else {
            try container.encodeNil(forKey: .suggestion)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        device = try Self.wire(DeviceOrientation.init(wireName:), container, .device)
        interface = try Self.wire(InterfaceOrientation.init(wireName:), container, .interface)
        if let degrees = try container.decodeIfPresent(Int.self, forKey: .rotation) {
            guard let rotation = PanelRotation(degrees: degrees) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .rotation,
                    in: container,
                    debugDescription: "rotation \(degrees)"
                )
            }
            self.rotation = rotation
        } else {
            rotation = nil
        }
        allowed = try Self.mask(container, .allowed) ?? []
        lock = try Self.mask(container, .lock)
        sensor = try container.decode(SensorState.self, forKey: .sensor)
        generating = try container.decode(Bool.self, forKey: .generating)
        seq = try container.decode(UInt64.self, forKey: .seq)
        // Absent from daemons older than the field: unknown, as without a switch.
        tabletMode = try container.decodeIfPresent(Bool.self, forKey: .tabletMode)
        tabletModeSource = try container.decodeIfPresent(TabletModeSource.self, forKey: .tabletModeSource)
        hinge = try container.decodeIfPresent(Double.self, forKey: .hinge)
        // Absent from daemons older than the field: no suggestion.
        if let name = try container.decodeIfPresent(String.self, forKey: .suggestion) {
            guard let orientation = InterfaceOrientation(wireName: name), orientation != .unknown else {
                throw DecodingError.dataCorruptedError(
                    forKey: .suggestion,
                    in: container,
                    debugDescription: "not an interface orientation: '\(name)'"
                )
            }
            suggestion = orientation
        } else {
            suggestion = nil
        }
    }

    private static func wire<T>(
        _ parse: (String) -> T?,
        _ container: KeyedDecodingContainer<CodingKeys>,
        _ key: CodingKeys
    ) throws -> T {
        let name = try container.decode(String.self, forKey: key)
        guard let value = parse(name) else {
            throw DecodingError.dataCorruptedError(
                forKey: key,
                in: container,
                debugDescription: "unknown name '\(name)'"
            )
        }
        return value
    }

    private static func mask(
        _ container: KeyedDecodingContainer<CodingKeys>,
        _ key: CodingKeys
    ) throws -> InterfaceOrientationMask? {
        guard let names = try container.decodeIfPresent([String].self, forKey: key) else { return nil }
        do {
            return try InterfaceOrientationMask(names: names)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: error.description)
        }
    }
}

extension SensorState: JSONWritable {
    public func write(to json: inout JSONWriter) { json.string(rawValue) }
}

extension TabletModeSource: JSONWritable {
    public func write(to json: inout JSONWriter) { json.string(rawValue) }
}

extension InterfaceOrientationMask: JSONWritable {
    /// Writes the mask as the list of its wire names in listing order, as ``wireNames`` but without building it.
    public func write(to json: inout JSONWriter) {
        json.array { json in
            for orientation in Self.listingOrder where contains(Self(orientation)) {
                json.string(orientation.wireName)
            }
        }
    }
}

extension OrientationState: JSONWritable {
    /// Writes the state as ``encode(to:)`` does, keys sorted.
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("allowed", allowed)
            json.member("device", device.wireName)
            json.member("generating", generating)
            json.member("hinge", hinge)
            json.member("interface", interface.wireName)
            json.member("lock", lock)
            json.member("rotation", rotation?.degrees)
            json.member("sensor", sensor)
            json.member("seq", seq)
            json.member("suggestion", suggestion?.wireName)
            json.member("tablet_mode", tabletMode)
            json.member("tablet_mode_source", tabletModeSource)
            json.member("transform", transform)
        }
    }
}
