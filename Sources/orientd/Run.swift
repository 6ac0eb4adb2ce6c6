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
import OrientDaemon
import SensorDevices
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// `orientd run`: the daemon.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the daemon.",
        discussion: """
            Serves the control socket (PROTOCOL.md: JSON lines; 'orientctl' is its client) and \
            runs the accelerometer only while a client is generating. Under systemd, the socket \
            comes from orientd.socket and the state directory from StateDirectory=; to try it \
            unprivileged: orientd run --socket /tmp/orientd.sock --state-dir /tmp/orientd-state

            The configuration is /etc/orientd/orientd.conf (or --config), then \
            /etc/orientd/orientd.conf.d/*.conf; SIGHUP re-reads it. A bad file stops the start \
            with exit status 2; on SIGHUP the old configuration stays. Options given here \
            override the files.
            """
    )

    @Option(
        help: ArgumentHelp(
            "The main configuration file instead of /etc/orientd/orientd.conf (drop-ins are still read).",
            valueName: "path"
        )
    )
    var config: String?

    @Option(help: ArgumentHelp("The control socket (default /run/orientd/socket).", valueName: "path"))
    var socket: String?

    @Option(
        name: .customLong("state-dir"),
        help: ArgumentHelp(
            "Where the lock is kept (default $STATE_DIRECTORY, else /var/lib/orientd).",
            valueName: "dir"
        )
    )
    var stateDirectory: String?

    @OptionGroup var sensor: SensorOptionGroup

    func run() throws {
        let configuration: Configuration
        do {
            configuration = try loadConfiguration()
        } catch {
            let message = "orientd: bad configuration, not starting:\n\(error)\n"
            try? FileDescriptor.standardError.writeAll(message)
            throw ExitCode(2)
        }
        let logger = Logger(label: "orientd")
        let daemon: Daemon
        do {
            daemon = try Daemon(settings: configuration.settings, logger: logger) { () throws(ConfigurationErrors) in
                try loadConfiguration()
            }
        } catch {
            throw CommandFailure("\(error)")
        }
        let status = daemon.run()
        if status != 0 { throw ExitCode(status) }
    }

    /// The files' configuration with this command line's options over it.
    private func loadConfiguration() throws(ConfigurationErrors) -> Configuration {
        var configuration = try Configuration.load(file: config ?? Configuration.defaultFile)
        apply(to: &configuration.settings)
        return configuration
    }

    /// The command line overrides the files for the options it was given.
    private func apply(to settings: inout DaemonSettings) {
        if let socket { settings.socketPath = socket }
        if let stateDirectory {
            settings.stateDirectory = stateDirectory
        } else if let fromSystemd = getenv("STATE_DIRECTORY").map({ String(cString: $0) }), !fromSystemd.isEmpty {
            settings.stateDirectory = String(fromSystemd.split(separator: ":").first ?? "/var/lib/orientd")
        }
        sensor.override(&settings.sensor)
        if sensor.verbose { settings.logLevel = .debug }
    }
}
