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
import Synchronization
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The lines of an event stream that never ends by itself: a compositor's event socket, or the standard output
/// of a program that prints one line per event (`swaymsg -t subscribe -m`, `xprop -spy`). A thread of its own
/// blocks in `read`, so nothing wakes while no event comes.
enum LineStream {
    /// The lines read from `descriptor` (which the stream owns and closes), without their `\n`, until the end of
    /// file or until the consumer stops listening; `stop` is then called once to unblock the reader (for a
    /// socket: `shutdown`; for a program's pipe: ending the program).
    static func lines(
        of descriptor: Int32,
        stop: @escaping @Sendable () -> Void,
        ended: @escaping @Sendable () -> Void = {}
    ) -> AsyncStream<String> {
        let (stream, sink) = AsyncStream.makeStream(of: String.self)
        sink.onTermination = { _ in stop() }
        DispatchQueue(label: "orientctl.line-stream").async {
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = retryingInterrupts {
                    chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                }
                guard count > 0 else { break }
                pending += chunk[..<count]
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    sink.yield(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
            }
            if !pending.isEmpty { sink.yield(String(decoding: pending, as: UTF8.self)) }
            close(descriptor)
            ended()
            sink.finish()
        }
        return stream
    }

    /// The lines a program prints on its standard output while it runs; the program ends (SIGTERM) when the
    /// consumer stops listening. Its standard error goes to orientctl's own, or nowhere with `discardingErrors`.
    /// - Throws: the failure to start it, as the text to report.
    static func lines(
        ofProgram arguments: [String],
        discardingErrors: Bool = false
    ) throws(QueryFailure) -> AsyncStream<String> {
        // Close-on-exec from the start: a program another thread starts meanwhile must not hold the write end.
        let pipe: (read: FileDescriptor, write: FileDescriptor)
        do throws(Errno) {
            pipe = try FileDescriptor.makePipe()
        } catch {
            throw QueryFailure(message: "pipe: \(error)")
        }
        let ends = [pipe.read.rawValue, pipe.write.rawValue]
        let spawned = ProgramSpawn.spawn(
            arguments,
            redirections: [(0, .open(path: "/dev/null", flags: O_RDONLY)), (1, .duplicate(ends[1]))]
                + (discardingErrors ? [(2, .open(path: "/dev/null", flags: O_WRONLY))] : [])
        )
        close(ends[1])
        let child: pid_t
        switch spawned {
        case .success(let pid):
            child = pid
        case .failure(let failure):
            close(ends[0])
            let outcome = ExternalCommand.Outcome(
                command: ExternalCommand(arguments: arguments),
                spawnError: failure.errno
            )
            throw QueryFailure(message: outcome.failureText)
        }
        // Reaped once, under the lock, so that a stop after the end never signals a pid the system reused. A stop
        // reaps the program itself, so that it is gone even when orientctl exits at once (the reading thread may
        // not see the end before the process does, and an orphan nobody reaps stays behind).
        let reaped = ReapedFlag()
        let program = child
        return lines(
            of: ends[0],
            stop: {
                reaped.state.withLock { done in
                    guard !done else { return }
                    _ = kill(program, SIGTERM)
                    var status: Int32 = 0
                    _ = retryingInterrupts { waitpid(program, &status, 0) }
                    done = true
                }
            },
            ended: {
                reaped.state.withLock { done in
                    guard !done else { return }
                    var status: Int32 = 0
                    _ = retryingInterrupts { waitpid(program, &status, 0) }
                    done = true
                }
            }
        )
    }
}

/// Whether a program of ``LineStream`` has been reaped.
private final class ReapedFlag: Sendable {
    let state = Mutex(false)
}
