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

/// One line of a trace: a time and the reading of the display's accelerometer, the base's, or both.
public struct TraceRow: Sendable, Hashable {
    /// Seconds.
    public var time: Double
    /// The display's reading, in m/s² after its mount matrix; nil on a line with only the base's.
    public var display: Vector3?
    /// The base's reading, in m/s² after its mount matrix; nil in a one-sensor trace and on a line without it.
    public var base: Vector3?

    /// A row from its time and readings.
    public init(time: Double, display: Vector3?, base: Vector3?) {
        self.time = time
        self.display = display
        self.base = base
    }
}
