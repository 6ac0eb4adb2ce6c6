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

/// The settings of `follow` that the applier needs besides the backend.
enum FollowOptions {
    /// The seconds `--timeout` and `TimeoutSec=` accept.
    static let timeoutRange = 0.1...3600.0
    /// The default of `--timeout`.
    static let defaultTimeoutSeconds = 10.0
}
