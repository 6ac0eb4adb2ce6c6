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

import FoundationEssentials
import OrientProtocol
import OrientationCore

extension PanelRotation {
    /// The Wayland transform in degrees counter-clockwise, as wlr-randr's `--transform` and niri's
    /// `transform` take it: `normal`, `90`, `180`, `270`.
    var waylandTransformWord: String { self == .degrees0 ? "normal" : String(waylandTransform * 90) }

    /// cosmic-randr's `--transform`, the Wayland transform by another name: `normal`, `rotate90`, `rotate180`,
    /// `rotate270`.
    var cosmicTransform: String { self == .degrees0 ? "normal" : "rotate\(waylandTransform * 90)" }

    /// kscreen-doctor's `rotation`: xrandr's names (KDE's `left` is the Wayland transform 90), `none` for
    /// no rotation.
    var kscreenRotation: String { self == .degrees0 ? "none" : xrandrRotation }
}
