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

/// A failed socket call: the call, the path or fd it was about, and errno.
struct SocketError: Error, CustomStringConvertible {
    var operation: String
    var subject: String
    var errno: Errno

    var description: String {
        "\(operation)(\(subject)): \(errno)"
    }
}
