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
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Where the trace goes: standard output or a file, one line per sample, flushed as it comes.
final class TraceSink {
    private var writer: TraceWriter
    private let fd: Int32
    private let ownsDescriptor: Bool
    private(set) var samples = 0
    private var failed = false

    init(path: String?, rateHz: Double, withBase: Bool = false) throws {
        writer = TraceWriter(rateHz: rateHz, withBase: withBase)
        if let path {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw CommandFailure("cannot write '\(path)': \(Errno.current)")
            }
            fd = descriptor
            ownsDescriptor = true
        } else {
            fd = STDOUT_FILENO
            ownsDescriptor = false
        }
        emit(writer.headerLines.map { $0 + "\n" }.joined())
    }

    deinit {
        if ownsDescriptor { close(fd) }
    }

    func write(_ sample: Sample) {
        guard sample.time.isFinite, sample.acceleration.isFinite else { return }
        samples += 1
        emit(writer.line(for: sample) + "\n")
    }

    /// A sample of the base accelerometer, in a two-sensor trace.
    func writeBase(_ sample: Sample) {
        guard writer.withBase, sample.time.isFinite, sample.acceleration.isFinite else { return }
        samples += 1
        emit(writer.baseLine(for: sample) + "\n")
    }

    func finish() {
        if ownsDescriptor { fsync(fd) }
    }

    private func emit(_ text: String) {
        guard !failed else { return }
        do throws(Errno) {
            try FileDescriptor(rawValue: fd).writeAll(text)
        } catch {
            failed = true
            try? FileDescriptor.standardError.writeAll("orientd: error: cannot write the trace: \(error)\n")
        }
    }
}
