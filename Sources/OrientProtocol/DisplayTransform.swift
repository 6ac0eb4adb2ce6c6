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

/// The values a client needs to apply a rotation (ORIENTATION.md, display transforms).
public struct DisplayTransform: Sendable, Hashable, Codable {
    /// `wl_output` transform, 0–3.
    public var wayland: Int
    /// sway's `output … transform` value.
    public var sway: String
    /// `xrandr --rotate` value.
    public var xrandr: String
    /// xinput Coordinate Transformation Matrix, row by row.
    public var matrix: [Int]

    /// The transform of a panel rotation.
    public init(_ rotation: PanelRotation) {
        wayland = rotation.waylandTransform
        sway = rotation.swayTransform
        xrandr = rotation.xrandrRotation
        matrix = rotation.coordinateTransformationMatrix
    }
}

extension DisplayTransform: JSONWritable {
    public func write(to json: inout JSONWriter) {
        json.object { json in
            json.member("matrix", matrix)
            json.member("sway", sway)
            json.member("wayland", wayland)
            json.member("xrandr", xrandr)
        }
    }
}
