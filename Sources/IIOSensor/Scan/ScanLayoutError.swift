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

/// Channels that cannot form a scan layout.
public struct ScanLayoutError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the channels.
    public enum Reason: Sendable, Hashable {
        /// Two or more channels have this scan index.
        case duplicateScanIndex(Int)
        /// A channel has this negative scan index (the kernel's mark for a channel with no buffer slot).
        case negativeScanIndex(Int)
    }

    /// What is wrong.
    public var reason: Reason
    /// The channels involved: `x`, `y`, `z` or `timestamp`.
    public var channels: [String]

    /// An error for this reason and these channels.
    public init(reason: Reason, channels: [String]) {
        self.reason = reason
        self.channels = channels
    }

    /// The channels and what is wrong with them.
    public var description: String {
        let names = channels.joined(separator: ", ")
        switch reason {
        case .duplicateScanIndex(let index):
            return "channels \(names) share scan index \(index)"
        case .negativeScanIndex(let index):
            return "channel \(names) has scan index \(index), so it has no place in a buffered scan"
        }
    }
}
