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
    /// A user's name and every group it belongs to, from the user and group databases (NSS).
    struct UserRecord {
        var name: String
        /// The primary group of the user's entry and the groups listing the user as a member.
        var groupIDs: [UInt32]

        /// The user with this ID (`getpwuid_r`, then `getgrouplist`); nil when there is none or the lookup failed.
        init?(userID: UInt32) {
            guard let found = try? NameService.user(id: userID) else { return nil }
            name = found.name
            groupIDs = NameService.groupIDs(of: found)
        }
    }
}
