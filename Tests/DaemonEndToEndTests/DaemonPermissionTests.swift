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
import OrientdTestKit
import Testing

/// A system user made for one test (`useradd --system`), removed with `userdel` when it goes; `nobody` (65534)
/// when users cannot be made here (no useradd, not root).
final class DaemonTestUser {
    let name: String
    let userID: uid_t
    let groupID: gid_t
    private let made: Bool

    init() throws {
        let candidate = "orientd-test-" + String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let useradd = "/usr/sbin/useradd"
        if getuid() == 0, FileManager.default.isExecutableFile(atPath: useradd),
            try Self.run(useradd, ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", candidate]).status
                == 0,
            let entry = getpwnam(candidate)
        {
            name = candidate
            userID = entry.pointee.pw_uid
            groupID = entry.pointee.pw_gid
            made = true
        } else {
            name = "nobody"
            userID = 65534
            groupID = 65534
            made = false
        }
    }

    deinit {
        if made { _ = try? Self.run("/usr/sbin/userdel", [name]) }
    }

    /// Runs `lines` through `socat` connected to `socket`, as this user (`setpriv`); returns socat's output.
    func exchange(_ lines: [String], socket: String) throws -> (status: Int32, output: String) {
        try Self.run(
            "/usr/bin/setpriv",
            [
                "--reuid=\(userID)", "--regid=\(groupID)", "--clear-groups", "/usr/bin/socat", "-t", "5", "-",
                "UNIX-CONNECT:\(socket)",
            ],
            input: lines.map { $0 + "\n" }.joined()
        )
    }

    /// Runs a program to its end with `input` on stdin; its stdout (stderr is appended, for messages).
    static func run(_ path: String, _ arguments: [String], input: String = "") throws -> (status: Int32, output: String)
    {
        let outcome = ProgramRun.run(
            [path] + arguments,
            environment: ["PATH": "/usr/sbin:/usr/bin:/sbin:/bin"],
            input: input
        )
        return (outcome.status, outcome.output + outcome.errors)
    }
}

extension EmulatedDeviceTests {
    /// Authorisation from the peer's credentials: `lock`, `unlock` and `constrain` are for controllers (root here:
    /// the control group `orientd` does not exist and there are no seats); reading and subscribing are open.
    @Suite struct DaemonPermissionTests {
        @Test func aNonControllerMayReadAndSubscribeButNotLock() async throws {
            for tool in ["/usr/bin/setpriv", "/usr/bin/socat"] {
                try #require(FileManager.default.isExecutableFile(atPath: tool), "\(tool) is needed")
            }
            let user = try DaemonTestUser()
            let fixture = AccelerometerFixture()
            let testbed = Testbed()
            try testbed.add(fixture.description)
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: try DaemonSandbox())
            let observer = try daemon.connect()
            _ = try await observer.call("begin")
            _ = try await observer.nextEvent()
            let before = try await observer.call("get")

            let requests = [
                #"{"id": 1, "method": "hello"}"#,
                #"{"id": 2, "method": "get"}"#,
                #"{"id": 3, "method": "status"}"#,
                #"{"id": 4, "method": "begin"}"#,
                #"{"id": 5, "method": "lock", "params": {"orientation": "portrait"}}"#,
                #"{"id": 6, "method": "lock", "params": {}}"#,
                #"{"id": 7, "method": "lock", "params": {"mask": "landscape"}}"#,
                #"{"id": 8, "method": "unlock"}"#,
                #"{"id": 9, "method": "constrain", "params": {"mask": "landscape"}}"#,
                #"{"id": 10, "method": "constrain", "params": {"mask": null}}"#,
                #"{"id": 11, "method": "end"}"#,
            ]
            let (status, output) = try user.exchange(requests, socket: daemon.sandbox.socketPath)
            #expect(status == 0, "socat as \(user.name): \(output)")
            let replies = try output.split(separator: "\n").map { try DaemonJSON.parse(Array($0.utf8)) }
                .filter { $0.has("id") }
            var byID: [Int: DaemonJSON] = [:]
            for reply in replies {
                if let id = reply["id"]?.integer { byID[id] = reply }
            }
            #expect(replies.count == requests.count, "\(output)\n\(daemon.process.errorText)")
            #expect(byID[1]?["result"]?["protocol"]?.integer == 1, "\(output)")
            #expect(byID[2]?["result"]?["seq"] != nil, "\(output)")
            #expect(byID[3]?["result"]?["clients"] != nil, "\(output)")
            #expect(byID[4]?["result"]?["count"]?.integer == 1, "\(output)")
            for id in 5...10 {
                #expect(byID[id]?["error"]?["code"]?.string == "permission-denied", "request \(id): \(output)")
            }
            #expect(byID[11]?["result"]?["count"]?.integer == 0, "\(output)")

            // Nothing changed; the observer saw no event of it.
            let after = try await observer.call("get")
            #expect(after.state == before.state, "\(before) → \(after)")
            #expect(observer.inbox.isEmpty, "\(observer.inbox)")
            // Root may.
            let locked = try await observer.call("lock", #"{"orientation": "portrait"}"#)
            #expect(locked.state?["lock"]?.strings == ["portrait"], "\(locked)")
            #expect(await daemon.stop() == .exited(0))
        }
    }
}
