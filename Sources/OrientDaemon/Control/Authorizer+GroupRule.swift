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

import SystemSupport

extension Authorizer {
    /// The group rule as configured and found at start.
    enum GroupRule: Sendable {
        /// No group configured.
        case none
        /// A group configured but not usable: it does not exist, or the lookup failed.
        case missing(name: String, reason: String)
        /// The group and its ID.
        case group(name: String, groupID: UInt32)

        /// Looks the group up (`getgrnam_r`).
        init(name: String?) {
            guard let name, !name.isEmpty else {
                self = .none
                return
            }
            do {
                if let found = try NameService.group(named: name) {
                    self = .group(name: name, groupID: found.groupID)
                } else {
                    self = .missing(name: name, reason: "no such group")
                }
            } catch {
                self = .missing(name: name, reason: "getgrnam_r: \(error)")
            }
        }
    }
}
