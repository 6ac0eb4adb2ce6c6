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

/// Small pieces of JSON text written by hand, where a whole encoder is not needed.
enum JSONText {
    static func encode(_ id: RequestID) -> String {
        switch id {
        case .number(let value): String(value)
        case .string(let value): quote(value)
        }
    }

    static func names(_ mask: InterfaceOrientationMask) -> String {
        "[" + mask.wireNames.map { "\"\($0)\"" }.joined(separator: ", ") + "]"
    }

    /// A JSON string literal.
    static func quote(_ text: String) -> String {
        var json = JSONWriter()
        json.string(text)
        return String(decoding: json.bytes, as: UTF8.self)
    }
}
