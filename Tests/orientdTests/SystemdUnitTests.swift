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
import SystemSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The systemd integration of issue 5: the shipped units pass `systemd-analyze`, the daemon
/// serves on a socket handed over as systemd does and reports readiness, and `make install`
/// installs exactly the expected files (and `make uninstall` removes them).
@Suite("systemd units, readiness and install")
struct SystemdUnitTests {
    private static let systemdFolder = CommandRunner.repositoryRoot.appendingPathComponent("systemd")

    @Test("systemd-analyze verify accepts the units with ExecStart= at the built binaries")
    func verifyUnits() throws {
        let analyze = try #require(Tool.find("systemd-analyze"), Tool.missing("systemd-analyze"))
        let orientd = try CommandRunner.orientd()
        let orientctl = orientd.deletingLastPathComponent().appendingPathComponent("orientctl")
        try #require(
            FileManager.default.isExecutableFile(atPath: orientctl.path),
            "orientctl is not built beside orientd"
        )
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        for name in [
            "orientd.service", "orientd.socket", "orientctl-watch.service", "orientctl-follow.service",
            "orientctl-suggest.service",
        ] {
            let text = try String(contentsOf: Self.systemdFolder.appendingPathComponent(name), encoding: .utf8)
                .replacingOccurrences(of: "/usr/bin/orientd", with: orientd.path)
                .replacingOccurrences(of: "/usr/bin/orientctl", with: orientctl.path)
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let system = try CommandRunner.run(
            analyze,
            [
                "verify", "--man=no", folder.appendingPathComponent("orientd.socket").path,
                folder.appendingPathComponent("orientd.service").path,
            ]
        )
        #expect(system.status == 0, "systemd-analyze verify failed:\n\(system.standardError)")
        #expect(
            !system.standardError.contains("orientd"),
            "systemd-analyze verify complained:\n\(system.standardError)"
        )

        // The drop-in that replaces iio-sensor-proxy, loaded beside the unit, with iio-sensor-proxy masked as
        // docs/gnome-kde.md says (an unmasked one would claim the same BusName=).
        let dropIns = folder.appendingPathComponent("orientd.service.d")
        try FileManager.default.createDirectory(at: dropIns, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.systemdFolder.appendingPathComponent("orientd-sensorproxy.conf"),
            to: dropIns.appendingPathComponent("sensorproxy.conf")
        )
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("iio-sensor-proxy.service").path,
            withDestinationPath: "/dev/null"
        )
        let replacing = try CommandRunner.run(
            analyze,
            [
                "verify", "--man=no", folder.appendingPathComponent("orientd.socket").path,
                folder.appendingPathComponent("orientd.service").path,
            ]
        )
        #expect(replacing.status == 0, "systemd-analyze verify failed with the drop-in:\n\(replacing.standardError)")
        #expect(
            !replacing.standardError.contains("orientd") && !replacing.standardError.contains("bus name"),
            "systemd-analyze verify complained about the drop-in:\n\(replacing.standardError)"
        )

        // The user unit, in a user manager with a private runtime folder.
        let runtime = folder.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(
            at: runtime,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        for name in ["orientctl-watch", "orientctl-follow", "orientctl-suggest"] {
            let user = try Tool.run(
                analyze,
                ["verify", "--user", "--man=no", folder.appendingPathComponent("\(name).service").path],
                environment: ["XDG_RUNTIME_DIR": runtime.path]
            )
            #expect(user.status == 0, "systemd-analyze verify --user \(name) failed:\n\(user.standardError)")
            #expect(
                !user.standardError.contains(name),
                "systemd-analyze verify --user complained about \(name):\n\(user.standardError)"
            )
        }
    }

    @Test("systemd-analyze security rates the shipped service at an exposure of 2.0 or less")
    func securityExposure() throws {
        let analyze = try #require(Tool.find("systemd-analyze"), Tool.missing("systemd-analyze"))
        let unit = Self.systemdFolder.appendingPathComponent("orientd.service")
        let result = try CommandRunner.run(analyze, ["security", "--offline=yes", "--no-pager", unit.path])
        let output = result.standardOutput + result.standardError
        let line = try #require(
            output.split(separator: "\n").first { $0.contains("Overall exposure level") },
            "no exposure figure in:\n\(output)"
        )
        // "→ Overall exposure level for orientd.service: 1.6 OK 🙂"
        let afterColon = line.split(separator: ":").last.map(String.init) ?? ""
        let figure = try #require(
            afterColon.split(separator: " ").compactMap { Double($0) }.first,
            "cannot read the figure in '\(line)'"
        )
        print("orientd.service: systemd-analyze security exposure \(figure)")
        #expect(figure <= 2.0, "exposure \(figure) is above 2.0:\n\(output)")
    }

    @Test("the daemon serves on a socket handed over by systemd-socket-activate and leaves it in place")
    func socketActivation() throws {
        let activate = try #require(Tool.find("systemd-socket-activate"), Tool.missing("systemd-socket-activate"))
        let orientd = try CommandRunner.orientd()
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let socketPath = folder.appendingPathComponent("socket").path
        // The daemon's own path: it must never be made, as the socket comes from LISTEN_FDS.
        let ownPath = folder.appendingPathComponent("own.socket").path
        let log = folder.appendingPathComponent("stderr")

        let process = try Tool.start(
            activate,
            [
                "-l", socketPath, "--", orientd.path, "run", "--socket", ownPath,
                "--state-dir", folder.appendingPathComponent("state").path,
            ],
            standardError: log
        )
        defer { Tool.stop(process) }
        let client = try UnixSocket.connect(to: socketPath, once: process)
        defer { close(client) }
        try UnixSocket.send(#"{"id":1,"method":"hello"}"# + "\n", on: client)
        let reply = try UnixSocket.readLine(from: client)
        #expect(reply.contains(#""id":1"#) && reply.contains(#""result""#), "unexpected reply: \(reply)")

        process.terminate()
        process.waitUntilExit()
        let stderr = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(process.terminationStatus == 0, "orientd exited with \(process.terminationStatus):\n\(stderr)")
        #expect(stderr.contains("socket activation"), "orientd did not say it took systemd's socket:\n\(stderr)")
        #expect(!FileManager.default.fileExists(atPath: ownPath), "orientd made its own socket instead")
        #expect(FileManager.default.fileExists(atPath: socketPath), "orientd removed the inherited socket file")
    }

    @Test("READY=1 and STATUS= arrive on NOTIFY_SOCKET")
    func readinessNotification() throws {
        let orientd = try CommandRunner.orientd()
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notifyPath = folder.appendingPathComponent("notify").path
        let notify = try UnixSocket.datagramListener(at: notifyPath)
        defer { close(notify) }
        let log = folder.appendingPathComponent("stderr")

        let process = try Tool.start(
            orientd,
            [
                "run", "--socket", folder.appendingPathComponent("socket").path,
                "--state-dir", folder.appendingPathComponent("state").path,
            ],
            environment: ["NOTIFY_SOCKET": notifyPath],
            standardError: log
        )
        defer { Tool.stop(process) }

        var messages: [String] = []
        while !(messages.contains { $0.contains("READY=1") } && messages.contains { $0.contains("STATUS=") }) {
            guard let datagram = UnixSocket.receive(from: notify) else {
                let stderr = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                Issue.record("no READY=1 and STATUS= yet; received \(messages); orientd said:\n\(stderr)")
                return
            }
            messages.append(datagram)
        }
        let lines = messages.flatMap { $0.split(separator: "\n").map(String.init) }
        #expect(lines.contains("READY=1"))
        let status = lines.first { $0.hasPrefix("STATUS=") }
        print("orientd notified: \(lines.joined(separator: " | "))")
        #expect(status.map { $0.count > "STATUS=".count } == true, "empty STATUS= line")

        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test(
        "make install installs exactly the expected files and make uninstall removes them",
        arguments: ["/usr", "/opt/orientd"]
    )
    func installAndUninstall(prefix: String) throws {
        let make = try #require(Tool.find("make"), Tool.missing("make"))
        let binaries = try CommandRunner.orientd().deletingLastPathComponent()
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("root")
        let root = CommandRunner.repositoryRoot.path
        let variables = ["DESTDIR=\(destination.path)", "PREFIX=\(prefix)", "BIN_DIR=\(binaries.path)"]

        let install = try CommandRunner.run(make, ["-s", "-C", root, "install"] + variables)
        try #require(install.status == 0, "make install failed:\n\(install.standardOutput)\(install.standardError)")

        var expected = [
            "bin/orientd", "bin/orientctl",
            "lib/systemd/system/orientd.service", "lib/systemd/system/orientd.socket",
            "lib/systemd/user/orientctl-watch.service", "lib/systemd/user/orientctl-follow.service",
            "lib/systemd/user/orientctl-suggest.service",
            "lib/sysusers.d/orientd.conf",
            "lib/udev/rules.d/61-orientd.rules",
            "share/doc/orientd/orientd-network.conf",
            "share/doc/orientd/orientd-sensorproxy.conf",
            "share/dbus-1/system.d/net.hadess.SensorProxy.conf",
            "share/polkit-1/actions/net.hadess.SensorProxy.policy",
            "share/dbus-1/services/org.orientd.AppFocus.service",
            "share/gnome-shell/extensions/app-orientations@orientd/extension.js",
            "share/gnome-shell/extensions/app-orientations@orientd/core.js",
            "share/gnome-shell/extensions/app-orientations@orientd/metadata.json",
            "share/kwin/scripts/orientd-app-orientations/metadata.json",
            "share/kwin/scripts/orientd-app-orientations/contents/code/main.js",
            "share/orientd/install-manifest",
            "share/bash-completion/completions/orientd", "share/bash-completion/completions/orientctl",
            "share/zsh/site-functions/_orientd", "share/zsh/site-functions/_orientctl",
            "share/fish/vendor_completions.d/orientd.fish", "share/fish/vendor_completions.d/orientctl.fish",
            "share/man/man1/orientd.1", "share/man/man1/orientctl.1",
            "share/doc/orientd/README.md",
        ].map { "\(prefix)/\($0)" }
        // The documentation the units' Documentation= points to: the README and docs/ beside it.
        let documents = try FileManager.default.contentsOfDirectory(atPath: "\(root)/docs").filter {
            $0.hasSuffix(".md")
        }
        expected += documents.map { "\(prefix)/share/doc/orientd/docs/\($0)" }
        let shipsConfiguration = FileManager.default.fileExists(atPath: "\(root)/config/orientd.conf")
        if shipsConfiguration { expected.append("/etc/orientd/orientd.conf") }

        #expect(Tool.files(under: destination) == Set(expected))

        let service = try String(
            contentsOf: destination.appendingPathComponent("\(prefix)/lib/systemd/system/orientd.service"),
            encoding: .utf8
        )
        #expect(service.contains("\nExecStart=\(prefix)/bin/orientd run\n"))
        #expect(service.contains(" file:\(prefix)/share/doc/orientd/README.md\n"))
        let manual = try String(
            contentsOf: destination.appendingPathComponent("\(prefix)/share/man/man1/orientctl.1"),
            encoding: .utf8
        )
        #expect(manual.contains("follow"), "the orientctl man page does not describe its subcommands")
        let daemonManual = try String(
            contentsOf: destination.appendingPathComponent("\(prefix)/share/man/man1/orientd.1"),
            encoding: .utf8
        )
        #expect(daemonManual.contains("calibrate"), "the orientd man page does not describe calibrate")
        #expect(daemonManual.contains("hwdb\\-root") || daemonManual.contains("hwdb-root"))
        let userUnit = try String(
            contentsOf: destination.appendingPathComponent("\(prefix)/lib/systemd/user/orientctl-watch.service"),
            encoding: .utf8
        )
        #expect(userUnit.contains("\nExecStart=\(prefix)/bin/orientctl watch "))
        let followUnit = try String(
            contentsOf: destination.appendingPathComponent("\(prefix)/lib/systemd/user/orientctl-follow.service"),
            encoding: .utf8
        )
        #expect(followUnit.contains("\nExecStart=\(prefix)/bin/orientctl follow\n"))
        let suggestUnit = try String(
            contentsOf: destination.appendingPathComponent("\(prefix)/lib/systemd/user/orientctl-suggest.service"),
            encoding: .utf8
        )
        #expect(suggestUnit.contains("\nExecStart=\(prefix)/bin/orientctl suggest\n"))
        let busService = try String(
            contentsOf: destination.appendingPathComponent(
                "\(prefix)/share/dbus-1/services/org.orientd.AppFocus.service"
            ),
            encoding: .utf8
        )
        #expect(busService.contains("\nExec=\(prefix)/bin/orientctl kwin-focus\n"))
        let mode = try FileManager.default.attributesOfItem(atPath: destination.path + "\(prefix)/bin/orientd")[
            .posixPermissions
        ]
        #expect((mode as? NSNumber)?.intValue == 0o755)
        let completion = try CommandRunner.run(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "head -c 200 '\(destination.path)\(prefix)/share/bash-completion/completions/orientctl'"]
        )
        #expect(completion.standardOutput.contains("orientctl"))

        // A configuration the administrator changed survives uninstall.
        if shipsConfiguration {
            let configuration = destination.appendingPathComponent("etc/orientd/orientd.conf")
            try ("# changed\n" + String(contentsOf: configuration, encoding: .utf8))
                .write(to: configuration, atomically: true, encoding: .utf8)
        }
        let uninstall = try CommandRunner.run(make, ["-s", "-C", root, "uninstall"] + variables)
        #expect(uninstall.status == 0, "make uninstall failed:\n\(uninstall.standardOutput)\(uninstall.standardError)")
        #expect(Tool.files(under: destination) == (shipsConfiguration ? ["/etc/orientd/orientd.conf"] : []))
    }
}

/// Finding, running and stopping programs for these tests.
private enum Tool {
    static func find(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/sbin", "/sbin"]
        return folders.map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static func missing(_ name: String) -> Comment {
        "\(name) is not installed (Debian package 'systemd' or 'make'; scripts/install-deps installs systemd)"
    }

    /// Runs to completion with extra environment variables.
    static func run(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String]
    ) throws -> CommandRunner.Result {
        let folder = try CommandRunner.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("stdout")
        let process = try start(executable, arguments, environment: environment, standardError: output)
        process.waitUntilExit()
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        return CommandRunner.Result(status: process.terminationStatus, standardOutput: text, standardError: text)
    }

    /// Starts a program with its standard error (and output) going to `standardError`.
    static func start(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String] = [:],
        standardError: URL
    ) throws -> Process {
        _ = FileManager.default.createFile(atPath: standardError.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        for key in ["LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES", "NOTIFY_SOCKET"] { merged[key] = nil }
        merged.merge(environment) { _, new in new }
        process.environment = merged
        process.standardInput = FileHandle.nullDevice
        let handle = try FileHandle(forWritingTo: standardError)
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        return process
    }

    /// Sends SIGKILL if the process still runs (a test that failed half-way).
    static func stop(_ process: Process) {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// The files (and symbolic links) under `folder`, as absolute paths inside it.
    static func files(under folder: URL) -> Set<String> {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var files: Set<String> = []
        while let relative = enumerator.nextObject() as? String {
            var isFolder: ObjCBool = false
            let path = folder.path + "/" + relative
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
                files.insert("/" + relative)
            }
        }
        return files
    }
}

/// Plain AF_UNIX sockets for the tests: a stream client and a datagram listener.
private enum UnixSocket {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ what: String) { description = "\(what): \(Errno.current)" }
    }

    /// Generous bound so a broken daemon fails the test instead of hanging it (not a timing assertion).
    private static let receiveTimeoutSeconds = 60

    private static func setTimeout(_ fd: Int32) {
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    static func connect(to path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket") }
        let status = try UnixSocketAddress(path: path).withSocketAddress { Glibc.connect(fd, $0, $1) }
        guard status == 0 else {
            close(fd)
            throw Failure("connect \(path)")
        }
        setTimeout(fd)
        return fd
    }

    /// Connects as soon as `path` accepts connections, while `process` (which makes it) runs: the socket's file
    /// appears at bind(2), and connecting to it is refused until listen(2).
    static func connect(to path: String, once process: Process) throws -> Int32 {
        while true {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { throw Failure("socket") }
            let status = try UnixSocketAddress(path: path).withSocketAddress { Glibc.connect(fd, $0, $1) }
            let failure = errno
            if status == 0 {
                setTimeout(fd)
                return fd
            }
            close(fd)
            guard failure == ECONNREFUSED || failure == ENOENT else { throw Failure("connect \(path)") }
            try #require(process.isRunning, "the process ended before \(path) accepted a connection")
            usleep(10_000)
        }
    }

    static func send(_ text: String, on fd: Int32) throws {
        do {
            try FileDescriptor(rawValue: fd).writeAll(text)
        } catch {
            throw Failure("write")
        }
    }

    static func readLine(from fd: Int32) throws -> String {
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !line.contains(UInt8(ascii: "\n")) {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Failure("read (got '\(String(decoding: line, as: UTF8.self))')") }
            line += buffer[..<count]
        }
        return String(decoding: line.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }

    static func datagramListener(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket") }
        let status = try UnixSocketAddress(path: path).withSocketAddress { bind(fd, $0, $1) }
        guard status == 0 else {
            close(fd)
            throw Failure("bind \(path)")
        }
        setTimeout(fd)
        return fd
    }

    /// One datagram, or nil after the receive bound.
    static func receive(from fd: Int32) -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            return String(decoding: buffer[..<count], as: UTF8.self)
        }
    }
}
