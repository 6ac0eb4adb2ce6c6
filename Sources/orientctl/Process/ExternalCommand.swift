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
import FoundationEssentials
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A program `follow` runs: a compositor's control tool (found on `PATH`), or the user's `sh -c` command.
struct ExternalCommand: Sendable {
    /// How to tell that a run worked.
    enum Success: Sendable, Hashable {
        /// Exit status 0.
        case exitStatus
        /// Exit status 0 and nothing but `ok` in the output: `hyprctl` exits 0 even when Hyprland refuses.
        case hyprctlOK
    }

    /// The program and its arguments; the program is looked up on `PATH`.
    var arguments: [String]
    /// Variables added to orientctl's own environment.
    var environment: [(name: String, value: String)] = []
    /// How to tell that a run worked.
    var success = Success.exitStatus
    /// Whether the output is kept for the report (a query, a control tool) or goes to orientctl's own
    /// standard output and error (the user's command, as `watch --exec` runs it).
    var capturesOutput = true
    /// How long it may run before it is killed (with the processes it started); nil: as long as it takes.
    var timeout: Duration?

    /// The command as a shell would read it, with its variables in front: for `--dry-run` and reports.
    var shellText: String {
        (environment.map { "\($0.name)=\(Self.quoted($0.value))" } + arguments.map(Self.quoted))
            .joined(separator: " ")
    }

    /// A word quoted for `sh` when it needs it.
    static func quoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                    || "-_./:,@%+=".utf8.contains(byte)
            }
        if plain { return word }
        return "'" + word.replacing("'", with: #"'\''"#) + "'"
    }

    /// The time limit of the commands run in a task that sets it (`follow --timeout`) and that have none
    /// of their own.
    @TaskLocal static var timeLimit: Duration?

    /// Runs the command to its end on a thread of its own; kills it at its time limit.
    func run() async -> Outcome {
        var command = self
        if command.timeout == nil { command.timeout = Self.timeLimit }
        return await withCheckedContinuation { [command] continuation in
            DispatchQueue.global().async { continuation.resume(returning: command.runAndWait()) }
        }
    }

    /// How a run ended.
    struct Outcome: Sendable {
        /// The command.
        var command: ExternalCommand
        /// Why it could not start (errno), if it could not.
        var spawnError: Int32?
        /// The raw `waitpid` status.
        var waitStatus: Int32 = 0
        /// Its standard output, when captured.
        var output = ""
        /// Its standard error, when captured.
        var errorOutput = ""
        /// Whether it ran past its timeout and was killed.
        var timedOut = false

        /// Whether it worked, by the command's rule.
        var succeeded: Bool {
            guard spawnError == nil, !timedOut, waitStatus == 0 else { return false }
            switch command.success {
            case .exitStatus:
                return true
            case .hyprctlOK:
                // `hyprctl --batch` answers one `ok` per command; anything else is Hyprland's error.
                let rest = output.replacing("ok", with: "").filter { !$0.isWhitespace }
                return rest.isEmpty && !output.isEmpty
            }
        }

        /// What went wrong, for people: the command, how it ended, what it said.
        var failureText: String {
            let name = command.arguments.first ?? ""
            var text = "'\(command.shellText)' "
            if let spawnError {
                text += "could not start: \(Errno(spawnError))"
                if spawnError == ENOENT { text += " (is \(name) installed and on PATH?)" }
                return text
            }
            if timedOut, let timeout = command.timeout {
                text += "did not finish within \(timeout.secondsText) s and was killed"
            } else if waitStatus & 0x7f != 0 {
                text += "ended by signal \(waitStatus & 0x7f)"
            } else if (waitStatus >> 8) & 0xff != 0 {
                text += "exited with status \((waitStatus >> 8) & 0xff)"
            } else {
                text += "did not answer ok"
            }
            let said = (errorOutput + output).split(whereSeparator: \.isNewline).joined(separator: " ")
            if !said.isEmpty { text += ": " + said }
            return text
        }
    }

    /// Runs the command to its end on the calling thread.
    func runAndWait() -> Outcome {
        var outcome = Outcome(command: self)
        var environment = ProcessInfo.processInfo.environment
        for variable in self.environment { environment[variable.name] = variable.value }

        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        var redirections: [(descriptor: Int32, to: ProgramSpawn.Redirection)] = []
        if capturesOutput {
            // Only the child's standard output and error may hold the pipes, or their ends never come: they are
            // close-on-exec from the start, so that no program another thread starts meanwhile inherits them.
            do throws(Errno) {
                let output = try FileDescriptor.makePipe()
                do throws(Errno) {
                    let error = try FileDescriptor.makePipe()
                    outputPipe = [output.read.rawValue, output.write.rawValue]
                    errorPipe = [error.read.rawValue, error.write.rawValue]
                } catch {
                    output.read.close()
                    output.write.close()
                    throw error
                }
            } catch {
                outcome.spawnError = error.rawValue
                return outcome
            }
            redirections = [
                (0, .open(path: "/dev/null", flags: O_RDONLY)), (1, .duplicate(outputPipe[1])),
                (2, .duplicate(errorPipe[1])),
            ]
        }
        // A command that may be killed leads a process group of its own, so that what it started dies with it
        // (and lets go of the pipes).
        let spawned = ProgramSpawn.spawn(
            arguments,
            environment: environment.map { "\($0.key)=\($0.value)" },
            redirections: redirections,
            ownProcessGroup: timeout != nil
        )
        if capturesOutput {
            close(outputPipe[1])
            close(errorPipe[1])
        }
        let child: pid_t
        switch spawned {
        case .success(let pid):
            child = pid
        case .failure(let failure):
            outcome.spawnError = failure.errno
            if capturesOutput {
                close(outputPipe[0])
                close(errorPipe[0])
            }
            return outcome
        }
        let deadline = timeout.map { ContinuousClock.now + $0 }
        if capturesOutput {
            let (output, errorOutput, inTime) = Self.drain(outputPipe[0], errorPipe[0], until: deadline)
            outcome.output = String(decoding: output, as: UTF8.self)
            outcome.errorOutput = String(decoding: errorOutput, as: UTF8.self)
            if !inTime { outcome.timedOut = true }
        }
        var status: Int32 = 0
        var reaped = false
        if let deadline, !outcome.timedOut {
            // Nothing to read (or all read): wait for the end in naps growing from 1 to 16 ms, until the deadline.
            var nap: UInt32 = 1000
            while !reaped, !outcome.timedOut {
                let result = retryingInterrupts { waitpid(child, &status, WNOHANG) }
                if result == child {
                    reaped = true
                } else if result < 0 {
                    break
                } else if ContinuousClock.now >= deadline {
                    outcome.timedOut = true
                } else {
                    usleep(nap)
                    nap = min(nap * 2, 16000)
                }
            }
        }
        if outcome.timedOut { kill(-child, SIGKILL) }
        if !reaped {
            _ = retryingInterrupts { waitpid(child, &status, 0) }
        }
        outcome.waitStatus = status
        return outcome
    }

    /// Reads two pipes to their ends together (a program that fills one while we wait on the other
    /// must not block), or until `deadline`, then closes them; false when the deadline came first.
    private static func drain(
        _ first: Int32,
        _ second: Int32,
        until deadline: ContinuousClock.Instant?
    ) -> ([UInt8], [UInt8], Bool) {
        var collected: [[UInt8]] = [[], []]
        var descriptors = [
            pollfd(fd: first, events: Int16(POLLIN), revents: 0), pollfd(fd: second, events: Int16(POLLIN), revents: 0),
        ]
        var chunk = [UInt8](repeating: 0, count: 4096)
        var inTime = true
        while descriptors.contains(where: { $0.fd >= 0 }) {
            if let deadline, ContinuousClock.now >= deadline {
                inTime = false
                break
            }
            // The wait is worked out afresh for a poll made again after a signal.
            let ready = retryingInterrupts {
                poll(&descriptors, nfds_t(descriptors.count), Self.milliseconds(until: deadline))
            }
            if ready < 0 { break }
            for index in descriptors.indices where descriptors[index].fd >= 0 && descriptors[index].revents != 0 {
                let file = FileDescriptor(rawValue: descriptors[index].fd)
                let count = (try? file.read(into: &chunk)) ?? -1
                if count > 0 {
                    collected[index] += chunk[..<count]
                } else {
                    file.close()
                    descriptors[index].fd = -1
                }
            }
        }
        for descriptor in descriptors where descriptor.fd >= 0 { close(descriptor.fd) }
        return (collected[0], collected[1], inTime)
    }

    /// poll(2)'s timeout for `deadline`: the milliseconds left rounded up, 0 once it has passed, -1 (no limit)
    /// without one.
    private static func milliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
        guard let deadline else { return -1 }
        let left = ContinuousClock.now.duration(to: deadline)
        guard left > .zero else { return 0 }
        return Int32(
            clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1
        )
    }
}

extension Duration {
    /// The whole seconds, or the seconds with their fraction when there is one: `10`, `0.5`.
    var secondsText: String {
        let (seconds, attoseconds) = components
        guard attoseconds != 0 else { return String(seconds) }
        var text = String(Double(seconds) + Double(attoseconds) / 1e18)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }
}
