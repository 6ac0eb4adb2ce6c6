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
import SystemSupport
import Testing

/// What the desktop tests (the real gnome-shell, the real KWin) need, and whether they can run here: the programs
/// come from Debian packages that scripts/install-deps installs. A test skips only where they cannot be installed
/// (no apt-get: not a Debian-like system); where apt-get is, a missing program fails the test, saying what to run.
package enum DesktopPrograms {
    /// gnome-shell's tests: gnome-shell, Xorg with the dummy driver, GTK 4 through python3-gi, gdbus.
    package static let gnome = ["gnome-shell", "Xorg", "gdbus", "/usr/lib/xorg/modules/drivers/dummy_drv.so"]
    /// KWin's tests: kwin_wayland, GTK 4 through python3-gi, gdbus.
    package static let kwin = ["kwin_wayland", "gdbus"]
    /// The shared core's tests: gjs.
    package static let gjs = ["gjs"]

    /// Whether the programs can be had here: present, or installable with apt-get (scripts/install-deps).
    package static func canRun(_ programs: [String]) -> Bool {
        missing(programs).isEmpty || FileManager.default.isExecutableFile(atPath: "/usr/bin/apt-get")
    }

    /// The programs (or files) of `programs` not found.
    package static func missing(_ programs: [String]) -> [String] {
        var wanted = programs
        if programs != gjs { wanted.append("/usr/lib/python3/dist-packages/gi/__init__.py") }
        return wanted.filter { program in
            program.hasPrefix("/") ? !FileManager.default.fileExists(atPath: program) : find(program) == nil
        }
    }

    /// Throws, naming what to install, when a program is missing.
    package static func require(_ programs: [String]) throws {
        let absent = missing(programs)
        guard absent.isEmpty else {
            throw DaemonTestError(
                description: "missing \(absent.joined(separator: ", ")): run scripts/install-deps (Debian packages "
                    + "gnome-shell, xserver-xorg-video-dummy, kwin-wayland, gjs, python3-gi, gir1.2-gtk-4.0)"
            )
        }
    }

    /// A program's path on PATH.
    package static func find(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The repository's root (for the shipped files: desktop/, scripts/, systemd/).
    package static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
}

/// A desktop session's private world for one test: a home and a runtime folder, a private session bus (which
/// starts the services of `services/` on demand), a private system bus, the variables every program of the
/// session gets. Everything ends and is removed with it.
package final class DesktopSession {
    package let sandbox: DaemonSandbox
    package let systemBus: PrivateSystemBus
    package let sessionBus: ChildProcess
    package let testbed: Testbed
    /// `unix:path=…` of the session bus.
    package let sessionAddress: String

    package var home: String { sandbox.directory + "/home" }
    package var runtimeDirectory: String { sandbox.directory + "/runtime" }
    /// The folder of D-Bus service files the session bus starts services from.
    package var servicesDirectory: String { sandbox.directory + "/services" }
    /// follow.conf's folder: `$XDG_CONFIG_HOME/orientd`.
    package var configDirectory: String { home + "/.config/orientd" }

    /// The variables of the session's programs: no umockdev (the desktop reads the real /dev and /sys), the
    /// private folders and buses, orientd's socket.
    package func environment(socket: String) -> [String: String] {
        [
            "LD_PRELOAD": "", "HOME": home, "XDG_RUNTIME_DIR": runtimeDirectory, "XDG_CONFIG_HOME": home + "/.config",
            "XDG_DATA_HOME": home + "/.local/share", "XDG_CACHE_HOME": home + "/.cache",
            "DBUS_SESSION_BUS_ADDRESS": sessionAddress, "DBUS_SYSTEM_BUS_ADDRESS": systemBus.address,
            "ORIENTD_SOCKET": socket, "NO_AT_BRIDGE": "1", "GTK_A11Y": "none", "GSETTINGS_BACKEND": "keyfile",
            "DISPLAY": "", "WAYLAND_DISPLAY": "", "XDG_CURRENT_DESKTOP": "", "XDG_SESSION_TYPE": "wayland",
        ]
    }

    /// Starts both buses; the session bus gets `environment(socket:)`, so that the services it starts do too.
    package init(testbed: Testbed, socket: String) async throws {
        self.testbed = testbed
        sandbox = try DaemonSandbox()
        systemBus = try await PrivateSystemBus(testbed: testbed, policy: false)
        for folder in [sandbox.directory + "/home/.config/orientd", sandbox.directory + "/services"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(
            atPath: sandbox.directory + "/runtime",
            withIntermediateDirectories: true
        )
        chmod(sandbox.directory + "/runtime", 0o700)
        let socketPath = sandbox.directory + "/session_bus_socket"
        sessionAddress = "unix:path=" + socketPath
        let configuration = sandbox.directory + "/session.conf"
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socketPath)</listen>
          <auth>EXTERNAL</auth>
          <servicedir>\(sandbox.directory)/services</servicedir>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """.write(toFile: configuration, atomically: true, encoding: .utf8)
        var variables = [String: String]()
        for (key, value) in [
            "LD_PRELOAD": "", "HOME": sandbox.directory + "/home", "XDG_RUNTIME_DIR": sandbox.directory + "/runtime",
            "XDG_CONFIG_HOME": sandbox.directory + "/home/.config", "DBUS_SYSTEM_BUS_ADDRESS": systemBus.address,
            "ORIENTD_SOCKET": socket, "DBUS_SESSION_BUS_ADDRESS": sessionAddress,
        ] {
            variables[key] = value
        }
        sessionBus = try ChildProcess(
            "dbus-daemon",
            ["--config-file=\(configuration)", "--nofork", "--print-address=1"],
            testbed: testbed,
            environment: variables
        )
        let up = await sessionBus.waitUntil("the session bus listens", timeout: .seconds(20)) {
            sessionBus.outputText.contains("unix:path=")
        }
        guard up else { throw DaemonTestError(description: "dbus-daemon did not start\n\(sessionBus.report)") }
    }

    deinit {
        // The services it started end with their bus; then the buses, before their folders go.
        sessionBus.terminateAndReap()
        systemBus.process.terminateAndReap()
    }

    /// Runs a program of the session and waits for it (at most 30 s); its output and status in the result.
    package func run(_ program: String, _ arguments: [String], socket: String) async throws -> ChildProcess {
        let child = try ChildProcess(program, arguments, testbed: testbed, environment: environment(socket: socket))
        await child.wait(timeout: .seconds(30))
        return child
    }

    /// Runs a short program of the session to its end (gdbus), without umockdev.
    package func runNow(_ arguments: [String], socket: String) -> ProgramRun.Outcome {
        let variables = ProcessInfo.processInfo.environment.merging(environment(socket: socket)) { $1 }
        return ProgramRun.run(arguments, environment: variables.filter { !$0.value.isEmpty })
    }

    /// A GTK 4 window of its own application id and title (Tests/Corpus/desktop-app.py), on `waylandDisplay`;
    /// returns once the window is mapped.
    package func openWindow(
        appID: String,
        title: String,
        waylandDisplay: String,
        socket: String
    ) async throws
        -> ChildProcess
    {
        var variables = environment(socket: socket)
        variables["WAYLAND_DISPLAY"] = waylandDisplay
        variables["GDK_BACKEND"] = "wayland"
        let app = try ChildProcess(
            "/usr/bin/python3",
            [DesktopPrograms.repository + "/Tests/Corpus/desktop-app.py", appID, title],
            testbed: testbed,
            environment: variables
        )
        guard
            await app.waitUntil(
                "the window \(title) is shown",
                timeout: .seconds(60),
                { app.outputText.contains("shown") }
            )
        else { throw DaemonTestError(description: "the window \(title) did not show\n\(app.report)") }
        return app
    }
}
