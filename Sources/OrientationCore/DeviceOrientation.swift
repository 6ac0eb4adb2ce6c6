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

/// The physical orientation of the device (iOS's UIDeviceOrientation).
///
/// The portrait and landscape names are geometric: portrait means the screen is taller than wide.
public enum DeviceOrientation: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case unknown
    case portrait
    case portraitUpsideDown
    case landscapeLeft
    case landscapeRight
    case faceUp
    case faceDown

    /// The kebab-case name used on the wire and in traces.
    public var wireName: String {
        switch self {
        case .unknown: "unknown"
        case .portrait: "portrait"
        case .portraitUpsideDown: "portrait-upside-down"
        case .landscapeLeft: "landscape-left"
        case .landscapeRight: "landscape-right"
        case .faceUp: "face-up"
        case .faceDown: "face-down"
        }
    }

    /// Parses the wire name.
    public init?(wireName: some StringProtocol) {
        guard let value = Self.allCases.first(where: { $0.wireName == wireName }) else { return nil }
        self = value
    }

    /// The interface orientation this device orientation asks for; nil for `unknown`, `face-up`
    /// and `face-down`, which ask for none. The two landscapes swap, as on iOS.
    public var requestedInterfaceOrientation: InterfaceOrientation? {
        switch self {
        case .portrait: .portrait
        case .portraitUpsideDown: .portraitUpsideDown
        case .landscapeLeft: .landscapeRight
        case .landscapeRight: .landscapeLeft
        case .unknown, .faceUp, .faceDown: nil
        }
    }

    /// The pose that has this device orientation on the given panel; nil for the states without one.
    public func pose(natural: NaturalOrientation) -> Pose? {
        Pose.allCases.first { $0.deviceOrientation(natural: natural) == self }
    }

    public var description: String { wireName }
}
