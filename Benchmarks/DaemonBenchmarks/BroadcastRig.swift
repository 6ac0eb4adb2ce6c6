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

import Glibc
import Logging
import OrientDaemon

/// The real daemon in this process, on a socket in a fresh temporary folder, with `connections`
/// clients that have begun generating and one controller that makes changes. There is no
/// accelerometer here, so the sensor is `absent`; changes come from `constrain` requests, which
/// change the allowed set and the interface orientation without touching the disk.
final class BroadcastRig {
    private let daemon: Daemon
    private let folder: String
    private let controller: Int32
    private let clients: [Int32]
    private var portrait = false
    private var buffer = [UInt8](repeating: 0, count: 65536)

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    init(connections: Int) throws {
        try Self.raiseFileLimit(to: UInt(2 * connections + 64))
        try Self.blockDaemonSignals()
        var template = Array("/tmp/orientd-bench-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw Failure(description: "mkdtemp: \(errno)") }
        folder = String(cString: made)

        var settings = DaemonSettings()
        settings.socketPath = folder + "/socket"
        settings.stateDirectory = folder + "/state"
        settings.maxClients = connections + 1
        settings.controlGroup = nil
        settings.seatUsers = false
        settings.logLevel = .error
        let quiet = Logger(label: "orientd-benchmark") { _ in SwiftLogNoOpLogHandler() }
        daemon = try Daemon(settings: settings, logger: quiet)

        var clients: [Int32] = []
        for index in 0..<connections {
            let fd = try Self.connect(to: settings.socketPath)
            try Self.write(fd, "{\"id\":\(index),\"method\":\"begin\"}\n")
            clients.append(fd)
            // Let the daemon accept, so that the listen backlog never fills.
            try daemon.step(timeout: 0)
        }
        self.clients = clients
        controller = try Self.connect(to: settings.socketPath)
        // Until every `begin` is answered; the first also starts (and finds no) sensor.
        for fd in clients {
            while !Self.isReadable(fd) { try daemon.step(timeout: 0.05) }
        }
        _ = readAvailable(controller)
        for fd in clients { _ = readAvailable(fd) }
        // Every connection is made, and constraints never write the state file: the folder (the socket's name and
        // the empty state directory) goes now, since the rigs live until the process exits.
        unlink(folder + "/socket")
        rmdir(folder + "/state")
        rmdir(folder)
    }

    deinit {
        for fd in clients { close(fd) }
        close(controller)
    }

    /// Writes the next `constrain` request; ``dispatchChange()`` lets the daemon handle it.
    func sendChange() {
        portrait.toggle()
        let mask = portrait ? "portrait" : "landscape"
        do {
            try Self.write(controller, "{\"id\":1,\"method\":\"constrain\",\"params\":{\"mask\":[\"\(mask)\"]}}\n")
        } catch {
            fatalError("\(error)")
        }
    }

    /// Runs the daemon's loop until the controller's reply is there: the request is read and
    /// handled, its events are encoded and written to every generating connection.
    func dispatchChange() {
        do {
            while !Self.isReadable(controller) { try daemon.step(timeout: nil) }
        } catch {
            fatalError("\(error)")
        }
    }

    /// Reads the reply and every client's events, and checks that each client got both events of
    /// the change: a rig that measured nothing must not pass.
    func drain() {
        _ = readAvailable(controller)
        for fd in clients {
            let text = readAvailable(fd)
            guard text.contains("\"event\":\"interface\"") else {
                fatalError("a generating connection received no event: \(text.prefix(200))")
            }
        }
    }

    private func readAvailable(_ fd: Int32) -> String {
        var text = ""
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard count > 0 else { break }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        return text
    }

    private static func connect(to path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            close(fd)
            throw Failure(description: "connect \(path): \(errno)")
        }
        return fd
    }

    private static func write(_ fd: Int32, _ text: String) throws {
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard written == bytes.count else { throw Failure(description: "send: \(errno)") }
    }

    private static func isReadable(_ fd: Int32) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    private static func raiseFileLimit(to wanted: UInt) throws {
        var limit = rlimit()
        getrlimit(RLIMIT_NOFILE_VALUE, &limit)
        guard limit.rlim_cur < wanted else { return }
        limit.rlim_cur = wanted
        // Raising the hard limit needs root.
        limit.rlim_max = max(limit.rlim_max, wanted)
        guard setrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 else {
            throw Failure(
                description: "cannot raise the open-file limit to \(wanted): raise `ulimit -n`, or run as root"
            )
        }
    }

    /// The daemon handles SIGTERM, SIGINT and SIGHUP through sd-event, which needs them blocked.
    private static func blockDaemonSignals() throws {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in [SIGTERM, SIGINT, SIGHUP] { sigaddset(&set, signal) }
        guard pthread_sigmask(SIG_BLOCK, &set, nil) == 0 else { throw Failure(description: "pthread_sigmask") }
    }
}

private let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
