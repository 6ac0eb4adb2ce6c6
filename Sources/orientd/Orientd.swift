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

import ArgumentParser
import Logging
import OrientProtocol
import SystemSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The orientd command: the daemon and the tools around it (CLI.md).
@main
struct Orientd: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "orientd",
        abstract: "Screen-orientation daemon for convertible laptops and tablets.",
        discussion: """
            orientd reads the display's accelerometer through libiio, classifies it with hysteresis \
            into seven device orientations (portrait, portrait-upside-down, landscape-left, \
            landscape-right, face-up, face-down, unknown), maps them to the interface orientation \
            and tells subscribed programs over a Unix socket (/run/orientd/socket). The sensor runs \
            only while a program is listening. orientctl is its client.

            To try it without root: 'orientd run --socket /tmp/orientd.sock --state-dir \
            /tmp/orientd-state', then 'orientctl --socket /tmp/orientd.sock watch'. If the screen \
            turns the wrong way, 'sudo orientd calibrate' finds the accelerometer's mount matrix from \
            a few poses and applies it. For a bug report, include the output of 'orientd sensors' \
            and a trace from 'orientd record'.
            """,
        version: OrientdVersion.current,
        subcommands: [
            Run.self, Classify.self, Sensors.self, Record.self, CheckConfig.self, Calibrate.self, Report.self,
        ],
        defaultSubcommand: Run.self
    )

    /// Whether the command asked for debug messages.
    private static func verbose(_ command: any ParsableCommand) -> Bool {
        switch command {
        case let command as Sensors: command.sensor.verbose
        case let command as Record: command.sensor.verbose
        case let command as Run: command.sensor.verbose
        case let command as Calibrate: command.verbose
        default: false
        }
    }

    /// Runs the command; a usage error exits with status 2, like every orientd and orientctl command.
    static func main() {
        // First thing, before any thread exists: the event loop handles these as signal sources.
        Signals.blockHandled()
        do {
            var command = try parseAsRoot()
            // A calibration talks to a person: its sensors' routine messages (the identity matrix it reads raw
            // readings with, no base accelerometer) would only confuse; warnings and errors still show.
            let level: Logger.Level =
                Self.verbose(command) ? .debug : command is Calibrate || command is Report ? .warning : .info
            LoggingSystem.bootstrap { label in JournalLogHandler(label: label, level: level) }
            try command.run()
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            let message = fullMessage(for: error) + "\n"
            try? FileDescriptor.standardError.writeAll(message)
            Glibc.exit(2)
        }
    }
}
