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

/// Which edge of the panel points up, relative to the panel itself.
///
/// The pose is what the accelerometer measures; the device orientation is its geometric name,
/// which depends on the panel's natural orientation.
public enum Pose: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Display upright in its natural orientation: y ≈ −g.
    case normal
    /// Left edge up (turned 90° clockwise): x ≈ +g.
    case leftUp
    /// Upside down: y ≈ +g.
    case bottomUp
    /// Right edge up (turned 90° counter-clockwise): x ≈ −g.
    case rightUp

    /// The rotation a display applies to show upright content in this pose.
    public var panelRotation: PanelRotation {
        switch self {
        case .normal: .degrees0
        case .leftUp: .degrees90
        case .bottomUp: .degrees180
        case .rightUp: .degrees270
        }
    }

    /// Whether `other` is this pose turned by half a turn.
    public func isOpposite(of other: Pose) -> Bool {
        switch (self, other) {
        case (.normal, .bottomUp), (.bottomUp, .normal), (.leftUp, .rightUp), (.rightUp, .leftUp): true
        default: false
        }
    }

    /// The pose whose panel rotation is `rotation`.
    public init(panelRotation rotation: PanelRotation) {
        switch rotation {
        case .degrees0: self = .normal
        case .degrees90: self = .leftUp
        case .degrees180: self = .bottomUp
        case .degrees270: self = .rightUp
        }
    }

    /// The geometric device orientation of this pose on a panel with the given natural orientation.
    public func deviceOrientation(natural: NaturalOrientation) -> DeviceOrientation {
        switch (natural, self) {
        case (.landscape, .normal): .landscapeLeft
        case (.landscape, .leftUp): .portrait
        case (.landscape, .bottomUp): .landscapeRight
        case (.landscape, .rightUp): .portraitUpsideDown
        case (.portrait, .normal): .portrait
        case (.portrait, .leftUp): .landscapeRight
        case (.portrait, .bottomUp): .portraitUpsideDown
        case (.portrait, .rightUp): .landscapeLeft
        }
    }

    /// The name used in diagnostics and by iio-sensor-proxy (`normal`, `left-up`, `bottom-up`, `right-up`).
    public var wireName: String {
        switch self {
        case .normal: "normal"
        case .leftUp: "left-up"
        case .bottomUp: "bottom-up"
        case .rightUp: "right-up"
        }
    }

    /// Parses the wire name.
    public init?(wireName: some StringProtocol) {
        guard let pose = Self.allCases.first(where: { $0.wireName == wireName }) else { return nil }
        self = pose
    }

    public var description: String { wireName }
}
