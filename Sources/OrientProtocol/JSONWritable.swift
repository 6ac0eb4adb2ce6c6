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

/// A value the daemon writes as JSON, member by member, with ``JSONWriter``.
///
/// The daemon's messages are written this way rather than through `Encodable` and a `JSONEncoder`: that takes
/// tens of microseconds and dozens of allocations per event, and FoundationEssentials with it. The text is the
/// one `JSONEncoder` writes with `.sortedKeys` and `.withoutEscapingSlashes`, byte for byte: no spaces, keys in
/// byte order, optional members either `null` or left out as the `Encodable` conformance does.
public protocol JSONWritable {
    /// Writes the value at the writer's position.
    func write(to json: inout JSONWriter)
}
