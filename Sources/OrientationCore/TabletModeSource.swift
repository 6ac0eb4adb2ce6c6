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

/// What tablet mode comes from (PROTOCOL.md `tablet_mode_source`), strongest first.
public enum TabletModeSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// `orientctl tablet-mode on|off`: wins over everything else.
    case manual
    /// A `SW_TABLET_MODE` switch.
    case `switch`
    /// The hinge angle between two accelerometers.
    case hinge
}
