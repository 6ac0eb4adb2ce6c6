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

import OrientationCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One line of follow.conf's `[Apps]`: the apps a pattern names, and the interface orientations they support.
struct AppRule: Sendable, Equatable {
    /// The app's name as written: an exact `app_id` or class (`mpv`, `org.pwmt.zathura`), or a shell glob
    /// (`steam_app_*`; `*`, `?` and `[…]`).
    var pattern: String
    /// The interface orientations the app supports (ORIENTATION.md's masks and lists).
    var mask: InterfaceOrientationMask
    /// The line of follow.conf.
    var line: Int

    /// A rule from its line.
    /// - Throws: when the value names no mask, or one with no orientation.
    init(pattern: String, maskText: String, line: Int) throws(FollowConfigurationError) {
        let mask: InterfaceOrientationMask
        do {
            mask = try InterfaceOrientationMask(parsing: maskText)
        } catch {
            let names = InterfaceOrientationMask.namedMasks.map(\.name).joined(separator: ", ")
            throw FollowConfigurationError(message: "allowed: a mask (\(names)) or a list of orientations")
        }
        guard !mask.isEmpty else { throw FollowConfigurationError(message: "the mask allows no orientation") }
        self.init(pattern: pattern, mask: mask, line: line)
    }

    /// A rule from its parts.
    init(pattern: String, mask: InterfaceOrientationMask, line: Int) {
        self.pattern = pattern
        self.mask = mask
        self.line = line
    }

    /// Whether the pattern matches `name`, case included (app ids are case-sensitive).
    func matches(_ name: String) -> Bool {
        fnmatch(pattern, name, 0) == 0
    }
}
