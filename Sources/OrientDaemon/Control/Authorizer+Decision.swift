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

extension Authorizer {
    /// The outcome of the rules for one peer, in words.
    struct Decision: CustomStringConvertible {
        var isAdmitted: Bool
        var description: String

        init(who: String, admittedBy rule: String) {
            isAdmitted = true
            description = "\(who) \(rule)"
        }

        init(who: String, denial: String) {
            isAdmitted = false
            description = "\(who) \(denial)"
        }
    }
}
