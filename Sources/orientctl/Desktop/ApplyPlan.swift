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

/// What applying one rotation takes: the commands to run, and what already failed while finding them.
struct ApplyPlan: Sendable {
    var commands: [ExternalCommand] = []
    /// Failures of the queries (no output found, the input list unreadable), one text each.
    var failures: [String] = []
}
