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

/// A rotation of the display, counter-clockwise in degrees, with the values each display
/// stack needs to apply it (ORIENTATION.md, display transforms).
public enum PanelRotation: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case degrees0 = 0
    case degrees90 = 90
    case degrees180 = 180
    case degrees270 = 270

    /// The rotation in degrees (0, 90, 180, 270).
    public var degrees: Int { rawValue }

    /// The rotation for a number of degrees; nil unless 0, 90, 180 or 270.
    public init?(degrees: Int) {
        self.init(rawValue: degrees)
    }

    /// This rotation followed by `other`, counter-clockwise: their degrees added, modulo 360. A panel
    /// whose scan-out is turned from the device's natural orientation (a portrait-native panel in a
    /// landscape device) adds its offset to every rotation.
    public func adding(_ other: PanelRotation) -> PanelRotation {
        Self.allCases[(rawValue / 90 + other.rawValue / 90) % Self.allCases.count]
    }

    /// The `wl_output` transform (GNOME, KDE, Hyprland `transform`): 0–3, counter-clockwise.
    public var waylandTransform: Int { rawValue / 90 }

    /// sway's `output … transform` value; sway counts clockwise.
    public var swayTransform: String {
        switch self {
        case .degrees0: "normal"
        case .degrees90: "270"
        case .degrees180: "180"
        case .degrees270: "90"
        }
    }

    /// The `xrandr --rotate` value.
    public var xrandrRotation: String {
        switch self {
        case .degrees0: "normal"
        case .degrees90: "left"
        case .degrees180: "inverted"
        case .degrees270: "right"
        }
    }

    /// The xinput Coordinate Transformation Matrix, row by row.
    public var coordinateTransformationMatrix: [Int] {
        switch self {
        case .degrees0: [1, 0, 0, 0, 1, 0, 0, 0, 1]
        case .degrees90: [0, -1, 1, 1, 0, 0, 0, 0, 1]
        case .degrees180: [-1, 0, 1, 0, -1, 1, 0, 0, 1]
        case .degrees270: [0, 1, 0, -1, 0, 1, 0, 0, 1]
        }
    }

    public var description: String { String(rawValue) }
}
