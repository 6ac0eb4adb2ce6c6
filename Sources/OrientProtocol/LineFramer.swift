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

/// Splits a byte stream into lines, refusing lines longer than a limit (PROTOCOL.md: 4096 bytes
/// before the newline). One per connection; its buffer is reused, so framing does not allocate
/// once the buffer has grown to its working size.
public struct LineFramer: Sendable {
    /// What the next call to ``nextLine()`` found.
    public enum Next: Sendable, Hashable {
        /// A complete line, without its newline.
        case line([UInt8])
        /// More than the limit arrived without a newline: the connection must be closed.
        case tooLong
        /// No complete line yet.
        case incomplete
    }

    /// The longest line accepted, newline not counted.
    public let limit: Int
    private var buffer: [UInt8] = []
    private var start = 0
    /// `buffer[start..<searched]` holds no newline: bytes arriving a few at a time are looked at
    /// once, not again on every call.
    private var searched = 0

    /// A framer for lines of at most `limit` bytes.
    public init(limit: Int = 4096) {
        self.limit = limit
        buffer.reserveCapacity(limit + 1)
    }

    /// Adds received bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        compact()
        buffer.append(contentsOf: bytes)
    }

    /// The next complete line, or why there is none.
    public mutating func nextLine() -> Next {
        let end = buffer.count
        var index = searched
        while index < end {
            if buffer[index] == UInt8(ascii: "\n") {
                searched = index
                guard index - start <= limit else { return .tooLong }
                var line = Array(buffer[start..<index])
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                start = index + 1
                searched = start
                return .line(line)
            }
            index += 1
        }
        searched = end
        return end - start > limit ? .tooLong : .incomplete
    }

    /// Bytes received but not yet returned as a line.
    public var pendingCount: Int { buffer.count - start }

    private mutating func compact() {
        guard start > 0 else { return }
        buffer.removeSubrange(0..<start)
        searched -= start
        start = 0
    }
}
