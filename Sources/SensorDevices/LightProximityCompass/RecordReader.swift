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

/// Reads records of one size (an IIO buffer's scans, an evdev node's `struct input_event`s) from a non-blocking
/// descriptor until it would block, keeping the start of a record split across reads until the rest comes. The
/// bytes go into a buffer made once, so reading allocates nothing.
struct RecordReader {
    /// The size of one record, in bytes.
    let recordSize: Int
    private var bytes: [UInt8]
    private var pending = 0

    /// How a drain ended.
    enum Outcome: Equatable {
        /// Everything the descriptor held was read.
        case drained
        /// A read failed.
        case failed(Errno)
        /// The descriptor reached its end: the device is gone.
        case ended

        /// What a capture reports of this drain of `device`'s node by `operation` (spelled only on a failure): nil
        /// when it was drained.
        func failure(of operation: @autoclosure () -> String, device: String) -> SensorError? {
            switch self {
            case .drained: nil
            case .failed(let error): SensorError.call(operation(), device: device, errno: error)
            case .ended: SensorError(.deviceGone, operation: operation(), device: device)
            }
        }
    }

    /// A reader of `recordSize`-byte records, taking up to `recordsPerRead` at each read.
    init(recordSize: Int, recordsPerRead: Int) {
        self.recordSize = recordSize
        bytes = [UInt8](repeating: 0, count: recordSize * recordsPerRead)
    }

    /// Reads `file` until it would block, handing the start of each complete record to `record`, in order.
    mutating func drain(_ file: FileDescriptor, _ record: (UnsafeRawPointer) -> Void) -> Outcome {
        while true {
            let start = pending
            let result = bytes.withUnsafeMutableBytes { all in
                Result { () throws(Errno) in
                    try file.read(into: UnsafeMutableRawBufferPointer(rebasing: all[start...]))
                }
            }
            let count: Int
            do {
                count = try result.get()
            } catch .wouldBlock {
                return .drained
            } catch {
                return .failed(error)
            }
            guard count > 0 else { return .ended }
            pending += count
            let complete = pending / recordSize
            let size = recordSize
            bytes.withUnsafeBytes { all in
                for index in 0..<complete { record(all.baseAddress! + index * size) }
            }
            let rest = pending - complete * recordSize
            if rest > 0 {
                bytes.withUnsafeMutableBytes { all in
                    all.baseAddress!.copyMemory(from: all.baseAddress! + complete * size, byteCount: rest)
                }
            }
            pending = rest
        }
    }
}
