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

/// The orientation of the user interface (iOS's UIInterfaceOrientation).
public enum InterfaceOrientation: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case unknown
    case portrait
    case portraitUpsideDown
    case landscapeLeft
    case landscapeRight

    /// The kebab-case name used on the wire.
    public var wireName: String {
        switch self {
        case .unknown: "unknown"
        case .portrait: "portrait"
        case .portraitUpsideDown: "portrait-upside-down"
        case .landscapeLeft: "landscape-left"
        case .landscapeRight: "landscape-right"
        }
    }

    /// Parses the wire name.
    public init?(wireName: some StringProtocol) {
        guard let value = Self.allCases.first(where: { $0.wireName == wireName }) else { return nil }
        self = value
    }

    /// The device orientation that asks for this interface orientation (the inverse of the landscape swap).
    public var deviceOrientation: DeviceOrientation {
        switch self {
        case .unknown: .unknown
        case .portrait: .portrait
        case .portraitUpsideDown: .portraitUpsideDown
        case .landscapeLeft: .landscapeRight
        case .landscapeRight: .landscapeLeft
        }
    }

    /// The panel rotation a display applies for this interface orientation; nil for `unknown`
    /// (the display is left as it is).
    public func panelRotation(natural: NaturalOrientation) -> PanelRotation? {
        deviceOrientation.pose(natural: natural)?.panelRotation
    }

    /// The interface orientation of the natural pose: `landscape-right` on a landscape-native
    /// panel, `portrait` on a portrait-native one.
    public static func natural(_ natural: NaturalOrientation) -> InterfaceOrientation {
        Pose.normal.deviceOrientation(natural: natural).requestedInterfaceOrientation ?? .unknown
    }

    public var description: String { wireName }
}
