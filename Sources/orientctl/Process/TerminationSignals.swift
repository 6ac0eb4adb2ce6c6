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

import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// SIGINT and SIGTERM as an async stream, so that `watch` and `constrain` end cleanly (status 0).
enum TerminationSignals {
    /// Catches SIGINT and SIGTERM from now on; the stream yields each one that arrives.
    static func catching() -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int32.self)
        var sources: [any DispatchSourceSignal] = []
        for number in [SIGINT, SIGTERM] {
            // Ignored, so that only the dispatch source sees it (a spawned --exec command gets the default back).
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(number) }
            source.activate()
            sources.append(source)
        }
        // The stream's termination handler keeps the sources alive as long as anyone may wait on it.
        nonisolated(unsafe) let owned = sources
        continuation.onTermination = { _ in
            for source in owned { source.cancel() }
        }
        return stream
    }

    /// Runs `body` until it returns or throws, or until a signal arrives, which cancels it and returns.
    static func runUntilSignalled(
        _ signals: AsyncStream<Int32>,
        _ body: @escaping @Sendable () async throws -> Void
    ) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await body() }
            group.addTask {
                for await _ in signals { return }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}
