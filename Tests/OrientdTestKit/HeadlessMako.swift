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

/// A real notification server for a test: a private session bus (`dbus-daemon`) and mako on a ``HeadlessSway``'s
/// Wayland display, both as sway's user. Its notifications are read with `makoctl list` and its actions invoked
/// with `makoctl invoke`, as a person's click would.
package final class HeadlessMako {
    /// The session bus's address (`DBUS_SESSION_BUS_ADDRESS`).
    package let busAddress: String
    private let sway: HeadlessSway
    private let testbed: Testbed
    private let bus: ChildProcess
    /// The running mako; replaced by ``restart()``.
    package private(set) var mako: ChildProcess

    /// One notification as `makoctl list` shows it.
    package struct Notification: Equatable {
        package var id: Int
        package var appName: String
        package var icon: String
        package var summary: String
        package var body: String
        /// Action key to label.
        package var actions: [String: String]
    }

    /// Starts the session bus and mako, and waits until mako owns org.freedesktop.Notifications.
    /// - Parameter configuration: mako's configuration file (`actions=0`: a server without actions).
    package init(sway: HeadlessSway, testbed: Testbed, configuration makoConfiguration: String? = nil) async throws {
        self.sway = sway
        self.testbed = testbed
        let socket = sway.runtimeDirectory + "/bus"
        busAddress = "unix:path=\(socket)"
        let configuration = sway.runtimeDirectory + "/session.conf"
        // Any user may connect: the tests' clients run as root, the bus and mako as sway's user.
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:path=\(socket)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """.write(toFile: configuration, atomically: true, encoding: .utf8)
        chmod(configuration, 0o644)
        if let makoConfiguration {
            let folder = sway.runtimeDirectory + "/xdg-config/mako"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try makoConfiguration.write(toFile: folder + "/config", atomically: true, encoding: .utf8)
            chmod(folder + "/config", 0o644)
        }
        bus = try Self.start(
            "dbus-daemon",
            ["--config-file=\(configuration)", "--nofork", "--print-address=1"],
            testbed: testbed,
            environment: [:]
        )
        let bus = bus
        guard
            await bus.waitUntil("the session bus listens", timeout: .seconds(20), { bus.outputText.contains("unix:") })
        else { throw DaemonTestError(description: "dbus-daemon did not start\n\(bus.report)") }
        mako = try Self.startMako(sway: sway, busAddress: busAddress, testbed: testbed)
        try await waitUntilServing()
    }

    deinit {
        mako.terminate()
        bus.terminate()
    }

    /// The environment of a client of this bus (and of the sway): `DBUS_SESSION_BUS_ADDRESS` and sway's.
    package var clientEnvironment: [String: String] {
        sway.clientEnvironment.merging(["DBUS_SESSION_BUS_ADDRESS": busAddress]) { $1 }
    }

    /// The test process's environment with ``clientEnvironment``, for the tools run to their end.
    private var toolEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.merging(clientEnvironment) { $1 }
    }

    /// Stops mako and starts another: a notification server that restarts.
    package func restart() async throws {
        mako.terminate()
        await mako.wait(timeout: .seconds(20))
        mako = try Self.startMako(sway: sway, busAddress: busAddress, testbed: testbed)
        try await waitUntilServing()
    }

    /// The notifications mako shows now (`makoctl list`); nil when makoctl fails.
    package func notifications() -> [Notification]? {
        let run = ProgramRun.run(["makoctl", "list"], environment: toolEnvironment)
        guard run.status == 0, let object = try? JSONSerialization.jsonObject(with: Data(run.output.utf8)),
            let data = (object as? [String: Any])?["data"] as? [Any], let list = data.first as? [[String: Any]]
        else { return nil }
        func value(_ entry: [String: Any], _ key: String) -> Any? { (entry[key] as? [String: Any])?["data"] }
        return list.map { entry in
            Notification(
                id: (value(entry, "id") as? NSNumber)?.intValue ?? -1,
                appName: value(entry, "app-name") as? String ?? "",
                icon: value(entry, "app-icon") as? String ?? "",
                summary: value(entry, "summary") as? String ?? "",
                body: value(entry, "body") as? String ?? "",
                actions: value(entry, "actions") as? [String: String] ?? [:]
            )
        }
    }

    /// Waits until mako shows notifications that `condition` accepts (at most 20 s); the last list read.
    package func waitForNotifications(
        _ condition: ([Notification]) -> Bool
    ) async -> (met: Bool, list: [Notification]) {
        var last: [Notification] = []
        let met = await poll(timeout: .seconds(20)) {
            guard let list = notifications() else { return false }
            last = list
            return condition(list)
        }
        return (met, last)
    }

    /// Invokes `action` of notification `id` (`makoctl invoke -n ID ACTION`), as a click on its button.
    package func invoke(_ action: String, on id: Int) -> (status: Int32, output: String) {
        let run = ProgramRun.run(["makoctl", "invoke", "-n", String(id), action], environment: toolEnvironment)
        return (run.status, run.output + run.errors)
    }

    /// Dismisses notification `id` (`makoctl dismiss -n ID`), as a person closing it.
    package func dismiss(_ id: Int) -> (status: Int32, output: String) {
        let run = ProgramRun.run(["makoctl", "dismiss", "-n", String(id)], environment: toolEnvironment)
        return (run.status, run.output + run.errors)
    }

    /// mako's log so far, for failure messages.
    package var report: String { mako.report + "\n" + bus.report }

    /// Waits until mako owns the notification server's name.
    private func waitUntilServing() async throws {
        let environment = toolEnvironment
        let serving = await poll(timeout: .seconds(20)) {
            ProgramRun.run(
                ["busctl", "--user", "status", "org.freedesktop.Notifications"],
                environment: environment
            ).status == 0 && mako.exitStatus == nil
        }
        guard serving else { throw DaemonTestError(description: "mako did not start\n\(report)") }
    }

    private static func startMako(sway: HeadlessSway, busAddress: String, testbed: Testbed) throws -> ChildProcess {
        try start(
            "mako",
            [],
            testbed: testbed,
            environment: sway.clientEnvironment.merging([
                "DBUS_SESSION_BUS_ADDRESS": busAddress, "HOME": sway.runtimeDirectory,
                "XDG_CONFIG_HOME": sway.runtimeDirectory + "/xdg-config",
            ]) { $1 }
        )
    }

    /// Starts a program as sway's user (``HeadlessSway/unprivilegedUser`` when the tests run as root).
    private static func start(
        _ program: String,
        _ arguments: [String],
        testbed: Testbed,
        environment: [String: String]
    ) throws -> ChildProcess {
        guard getuid() == 0 else {
            return try ChildProcess(program, arguments, testbed: testbed, environment: environment)
        }
        let user = HeadlessSway.unprivilegedUser
        return try ChildProcess(
            "setpriv",
            ["--reuid=\(user.uid)", "--regid=\(user.gid)", "--clear-groups", "--", program] + arguments,
            testbed: testbed,
            environment: environment
        )
    }
}
