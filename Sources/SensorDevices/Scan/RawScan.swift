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

/// One scan's raw channel values, before scale and mount matrix.
public struct RawScan: Sendable, Hashable {
    /// The raw x value.
    public var x: Int64
    /// The raw y value.
    public var y: Int64
    /// The raw z value.
    public var z: Int64
    /// The timestamp in nanoseconds on the buffer's clock, when the scan carries one.
    public var timestamp: Int64?

    /// A scan from its values.
    @inlinable
    public init(x: Int64, y: Int64, z: Int64, timestamp: Int64? = nil) {
        self.x = x
        self.y = y
        self.z = z
        self.timestamp = timestamp
    }
}
