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
import OrientDaemon
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// `orientd check-config`: validates the configuration files and prints the effective configuration.
struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate the configuration and print every setting with its source.",
        discussion: """
            Reads /etc/orientd/orientd.conf (or --config), then /etc/orientd/orientd.conf.d/*.conf \
            in lexical order, as 'orientd run' does, and prints every key with its effective value \
            and where it came from ('default' or FILE:LINE). Exit status 0 when the files are \
            valid; 2 with every mistake on standard error otherwise.
            """
    )

    @Option(
        help: ArgumentHelp(
            "The main configuration file instead of /etc/orientd/orientd.conf (drop-ins are still read).",
            valueName: "path"
        )
    )
    var config: String?

    func run() throws {
        Signals.unblockForForegroundCommand()
        do {
            let configuration = try Configuration.load(file: config ?? Configuration.defaultFile)
            let output = StandardOutput()
            output.write(configuration.report)
            output.flush()
        } catch {
            let message = "\(error)\n"
            try? FileDescriptor.standardError.writeAll(message)
            throw ExitCode(2)
        }
    }
}
