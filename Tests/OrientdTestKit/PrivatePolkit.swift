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

import Foundation
import Glibc
import Testing

/// The real polkitd on a ``PrivateSystemBus``, with the repository's `systemd/net.hadess.SensorProxy.policy` as its
/// only action and `rules` as the site's rules. polkitd reads fixed folders (`/usr/share/polkit-1/actions`,
/// `/etc/polkit-1/rules.d`): it runs in a mount namespace of its own (`unshare --mount`), where the test's folders
/// are mounted over those, so the machine's are neither read nor touched. It needs root (it then runs as the user
/// `polkitd`, as on a system) and the Debian package polkitd.
package final class PrivatePolkit {
    package let sandbox: DaemonSandbox
    package let process: ChildProcess

    /// polkitd, as Debian installs it.
    package static let program = "/usr/lib/polkit-1/polkitd"
    /// polkit's own bus policy (the name for the user polkitd, calls for everyone), which the bus must include.
    package static let busPolicy = "/usr/share/dbus-1/system.d/org.freedesktop.PolicyKit1.conf"
    /// The shipped action file.
    package static let actionFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("systemd/net.hadess.SensorProxy.policy").path

    /// Why the real polkitd cannot run here, or nil when it can.
    package static var unavailable: String? {
        if getuid() != 0 { return "polkitd's folders can be replaced only by root (a mount namespace)" }
        if !FileManager.default.isExecutableFile(atPath: program) {
            return "\(program) is missing: run scripts/install-deps"
        }
        if !FileManager.default.fileExists(atPath: busPolicy) {
            return "\(busPolicy) is missing: run scripts/install-deps"
        }
        return nil
    }

    /// Starts polkitd on `bus` with `rules` (JavaScript, polkit's rules format) and waits until it owns its name.
    package init(bus: PrivateSystemBus, testbed: Testbed, rules: String) async throws {
        if let why = Self.unavailable { throw DaemonTestError(description: why) }
        sandbox = try DaemonSandbox()
        let actions = sandbox.directory + "/actions"
        let rulesFolder = sandbox.directory + "/rules.d"
        for folder in [actions, rulesFolder] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        }
        try FileManager.default.copyItem(atPath: Self.actionFile, toPath: actions + "/net.hadess.SensorProxy.policy")
        try rules.write(toFile: rulesFolder + "/50-test.rules", atomically: true, encoding: .utf8)
        let script =
            "mount --bind \"$1\" /usr/share/polkit-1/actions && mount --bind \"$2\" /etc/polkit-1/rules.d "
            + "&& exec \"$3\""
        process = try ChildProcess(
            "unshare",
            ["--mount", "--propagation", "private", "sh", "-c", script, "sh", actions, rulesFolder, Self.program],
            testbed: testbed,
            environment: bus.environment.merging(["LD_PRELOAD": ""]) { $1 }
        )
        let up = await process.waitUntil("polkitd owns its name", timeout: .seconds(30)) {
            (process.outputText + process.errorText).contains("Acquired the name org.freedesktop.PolicyKit1")
        }
        guard up else { throw DaemonTestError(description: "polkitd did not start\n\(process.report)") }
    }

    deinit {
        process.terminateAndReap()
    }
}
