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

/// What udev says happened to a device (its `ACTION`), parsed once from udev's string.
package enum HotplugAction: Sendable, Hashable {
    /// The device appeared.
    case add
    /// The device went away.
    case remove
    /// Its properties or attributes changed.
    case change
    /// A driver was bound to it: its attributes and node may only now be there.
    case bind
    /// Its driver was unbound.
    case unbind
    /// Anything else (`move`, `online`, `offline`), kept as udev wrote it.
    case other(String)

    /// The action udev names `text`.
    package init(_ text: String) {
        switch text {
        case "add": self = .add
        case "remove": self = .remove
        case "change": self = .change
        case "bind": self = .bind
        case "unbind": self = .unbind
        default: self = .other(text)
        }
    }
}

extension HotplugAction: CustomStringConvertible {
    /// The action as udev writes it.
    package var description: String {
        switch self {
        case .add: "add"
        case .remove: "remove"
        case .change: "change"
        case .bind: "bind"
        case .unbind: "unbind"
        case .other(let text): text
        }
    }
}
