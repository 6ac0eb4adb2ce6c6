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

public import OrientProtocol
public import OrientationCore

extension OrientationState {
    /// One line for people and scripts: `device=landscape-left interface=landscape-right rotation=0 lock=none`.
    ///
    /// `rotation` is the degrees, or `none` while the interface orientation is unknown; `lock` is `none` or the
    /// locked orientations joined by commas (`lock=landscape-left,landscape-right`). On a convertible the hinge
    /// angle follows while it is known (` hinge=187.5`), and ` tablet_mode=true` or ` tablet_mode=false` while
    /// something tells; last, while a rotation suggestion stands, ` suggestion=portrait`.
    public var stateLine: String {
        orientationLine(suggestion: false) + " lock=" + Self.list(lock)
            + (hinge.map { " hinge=\(Self.degrees($0))" } ?? "") + (tabletMode.map { " tablet_mode=\($0)" } ?? "")
            + suggestionText
    }

    /// ` suggestion=portrait` while a rotation suggestion stands, else empty.
    private var suggestionText: String {
        suggestion.map { " suggestion=\($0.wireName)" } ?? ""
    }

    /// Degrees with one decimal, as the state carries the hinge angle: `187.5`, `90.0`.
    public static func degrees(_ value: Double) -> String {
        let tenths = Int((value * 10).rounded())
        return (tenths < 0 ? "-" : "") + "\(abs(tenths) / 10).\(abs(tenths) % 10)"
    }

    /// The line without the lock, as `orientctl watch` prints per event:
    /// `device=portrait interface=portrait rotation=90`, and ` suggestion=portrait` while a rotation suggestion
    /// stands.
    public var orientationLine: String { orientationLine(suggestion: true) }

    private func orientationLine(suggestion: Bool) -> String {
        "device=\(device.wireName) interface=\(interface.wireName) rotation=\(rotation.map(\.description) ?? "none")"
            + (suggestion ? suggestionText : "")
    }

    /// The variables `orientctl watch --exec` sets for its command: `ORIENTD_DEVICE`, `ORIENTD_INTERFACE`,
    /// `ORIENTD_ROTATION`, `ORIENTD_WAYLAND_TRANSFORM`, `ORIENTD_SWAY_TRANSFORM`, `ORIENTD_XRANDR` and
    /// `ORIENTD_MATRIX` (nine numbers separated by spaces); nil while the interface orientation is unknown,
    /// when there is nothing to apply.
    public var hookEnvironment: [(name: String, value: String)]? {
        hookEnvironment(panelOffset: .degrees0)
    }

    /// The variables of ``hookEnvironment`` for a panel turned by `panelOffset` from the device's natural
    /// orientation (`orientctl follow --panel-offset`): the transform variables (`ORIENTD_WAYLAND_TRANSFORM`,
    /// `ORIENTD_SWAY_TRANSFORM`, `ORIENTD_XRANDR`, `ORIENTD_MATRIX`) are those of the rotation plus the offset,
    /// what the display must apply; `ORIENTD_ROTATION` stays the interface's rotation.
    public func hookEnvironment(panelOffset: PanelRotation) -> [(name: String, value: String)]? {
        guard let rotation else { return nil }
        let display = rotation.adding(panelOffset)
        return [
            ("ORIENTD_DEVICE", device.wireName),
            ("ORIENTD_INTERFACE", interface.wireName),
            ("ORIENTD_ROTATION", String(rotation.degrees)),
            ("ORIENTD_WAYLAND_TRANSFORM", String(display.waylandTransform)),
            ("ORIENTD_SWAY_TRANSFORM", display.swayTransform),
            ("ORIENTD_XRANDR", display.xrandrRotation),
            ("ORIENTD_MATRIX", display.coordinateTransformationMatrix.map(String.init).joined(separator: " ")),
        ]
    }

    /// A mask as a comma-separated list of orientation names, `none` for nil or empty.
    public static func list(_ mask: InterfaceOrientationMask?) -> String {
        guard let mask, !mask.isEmpty else { return "none" }
        return mask.wireNames.joined(separator: ",")
    }
}

extension Request.LockTarget {
    /// Reads a lock target as `orientctl lock` takes it: an orientation (`portrait`), a mask name
    /// (`landscape`, `all-but-upside-down`) or a list of names separated by commas (`portrait,landscape-left`).
    /// - Throws: the first name that is neither.
    public init(argument: String) throws(UnknownMaskNameError) {
        if let orientation = InterfaceOrientation(wireName: argument), orientation != .unknown {
            self = .orientation(orientation)
        } else {
            self = .mask(try InterfaceOrientationMask(parsing: argument))
        }
    }
}
