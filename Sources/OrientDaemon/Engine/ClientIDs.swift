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

/// The identities handed to clients: one counter shared by the control socket's connections and the bus clients.
struct ClientIDs {
    private var last: UInt64 = 0

    /// A new identity, never handed out before.
    mutating func next() -> ClientID {
        last += 1
        return ClientID(last)
    }
}
