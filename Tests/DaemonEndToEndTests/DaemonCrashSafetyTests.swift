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
import SystemSupport
import Testing

extension EmulatedDeviceTests {
    /// Reliability, "crash safety": no crash loses the user's lock, and a full disk is refused cleanly.
    @Suite struct DaemonCrashSafetyTests {
        /// The locks a client moves between (nil: unlocked), as `lock` and `unlock` requests and as the file's list.
        static let locks: [(method: String, params: String?, lock: [String]?)] = [
            ("unlock", nil, nil),
            ("lock", #"{"orientation": "portrait"}"#, ["portrait"]),
            ("lock", #"{"mask": "landscape"}"#, ["landscape-left", "landscape-right"]),
            ("lock", #"{"orientation": "portrait-upside-down"}"#, ["portrait-upside-down"]),
            ("lock", #"{"mask": ["landscape-left"]}"#, ["landscape-left"]),
            ("lock", #"{"mask": "all"}"#, DaemonContract.interfaceOrder),
        ]

        /// The lock in `state.json`: `.some(nil)` unlocked, nil when the file is missing; throws when it does not
        /// parse as a version-1 state file.
        static func lockOnDisk(_ path: String) throws -> [String]?? {
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            let json = try DaemonJSON.parse(Array(data))
            guard case .object(let members) = json, members.count == 3, json["version"]?.integer == 1,
                json["tablet_mode"]?.string == "auto",
                let lock = json["lock"]
            else {
                throw DaemonTestError(description: "not a state file: \(String(decoding: data, as: UTF8.self))")
            }
            return .some(lock.isNull ? nil : lock.strings)
        }

        /// SIGKILL at a random moment while a client changes the lock as fast as the replies come: the state file
        /// always parses, and holds the last lock whose reply arrived or the one whose request was in flight; the
        /// next daemon starts with what the file holds. 40 rounds a run (each starts a daemon); the issue's 500 take
        /// 13 runs (`ORIENTD_RELIABILITY_RUNS=13`), each with a seed of its own.
        @Test(arguments: Reliability.runs)
        func killedWhileTheLockChangesTheStateFileHoldsOneOfTheLastTwoLocks(run: Int) async throws {
            let sandbox = try DaemonSandbox()
            let testbed = Testbed()
            var rng = SeededGenerator(seed: Reliability.seed(0x5161_4B11, run: run))
            var acknowledged: [String]? = nil
            var inFlightFound = 0
            for round in 0..<40 {
                let daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
                let client = try daemon.connect()
                let restored = try #require(try await client.call("get").state)
                #expect(restored["lock"]?.strings == acknowledged, "round \(round): \(restored)")
                var inFlight: [String]?? = nil
                var id = 1000
                let deadline = ContinuousClock.now + .milliseconds(Int.random(in: 0...60, using: &rng))
                while true {
                    let change = Self.locks.filter { $0.lock != acknowledged }.randomElement(using: &rng)!
                    id += 1
                    try client.send(
                        #"{"id": \#(id), "method": "\#(change.method)""#
                            + (change.params.map { #", "params": \#($0)"# } ?? "")
                            + "}\n"
                    )
                    inFlight = .some(change.lock)
                    if ContinuousClock.now >= deadline { break }
                    let reply = try await client.next(timeout: .seconds(10), "the reply to \(change.method)")
                    #expect(reply.id == .integer(Int64(id)) && reply.errorCode == nil, "\(reply)")
                    acknowledged = reply.state?["lock"]?.strings
                    inFlight = nil
                    if ContinuousClock.now >= deadline { break }
                }
                // A moment for the request in flight to be handled, or its save to be under way.
                usleep(UInt32.random(in: 0...2000, using: &rng))
                daemon.process.signal(SIGKILL)
                #expect(await daemon.process.wait() == .signalled(SIGKILL))

                let onDisk = try Self.lockOnDisk(sandbox.stateFile)
                let expected: [[String]?] = [acknowledged] + (inFlight.map { [$0] } ?? [])
                #expect(
                    onDisk.map { expected.contains($0) } ?? (acknowledged == nil),
                    "round \(round): the file holds \(String(describing: onDisk)), acknowledged \(String(describing: acknowledged)), in flight \(String(describing: inFlight))"
                )
                if let onDisk, let inFlight, onDisk == inFlight, onDisk != acknowledged {
                    inFlightFound += 1
                    acknowledged = onDisk
                }
            }
            // Temporary files of saves cut short do not pile up: the next start clears them (one is planted, in case
            // no kill fell between a save's mkstemp and its rename).
            #expect(
                FileManager.default.createFile(
                    atPath: sandbox.stateDirectory + "/.state.json.Xq3v9Z",
                    contents: Data("{".utf8)
                )
            )
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: sandbox.stateDirectory)
                .filter { $0 != "state.json" }
            #expect(leftovers.isEmpty, "\(leftovers)")
            #expect(await daemon.stop() == .exited(0))
        }

        /// The state directory full (a tmpfs of one 4 KiB page, which `state.json` takes): the lock is refused
        /// with `state-not-saved`, the file and the lock stay as they were, no event is sent, and the daemon serves
        /// on; with room again, the same lock is saved.
        @Test(.enabled(if: StateDirectoryMount.isPermitted, "mounting a tmpfs needs CAP_SYS_ADMIN"))
        func aFullStateDirectoryRefusesTheLockAndKeepsTheOldOne() async throws {
            let sandbox = try DaemonSandbox()
            let mount = try StateDirectoryMount(sandbox.stateDirectory, options: "size=4k,mode=0755")
            defer { mount.unmount() }
            let testbed = Testbed()
            let daemon = try await RunningDaemon(testbed: testbed, sandbox: sandbox)
            let generator = try daemon.connect()
            _ = try await generator.call("begin")
            let client = try daemon.connect()
            let locked = try await client.call("lock", #"{"orientation": "portrait"}"#)
            #expect(locked.state?["lock"]?.strings == ["portrait"], "\(locked)")
            let saved = FileManager.default.contents(atPath: sandbox.stateFile)

            let refused = try await client.call("lock", #"{"mask": "landscape"}"#)
            #expect(refused.errorCode == "state-not-saved", "\(refused)")
            let message = refused.json["error"]?["message"]?.string ?? ""
            #expect(message.contains("No space left on device"), "\(message)")
            #expect(FileManager.default.contents(atPath: sandbox.stateFile) == saved)
            #expect(try await client.call("get").state?["lock"]?.strings == ["portrait"])
            #expect(try await generator.call("get").seq == locked.seq, "the refused lock made a change")
            let later = generator.log.filter { $0.isEvent && ($0.seq ?? 0) > (locked.seq ?? 0) }
            #expect(later.isEmpty, "events of a refused lock: \(later)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.stateDirectory) == ["state.json"])
            #expect(daemon.process.exitStatus == nil)

            try mount.remount(options: "size=64k")
            let retried = try await client.call("lock", #"{"mask": "landscape"}"#)
            #expect(retried.state?["lock"]?.strings == ["landscape-left", "landscape-right"], "\(retried)")
            #expect(try Self.lockOnDisk(sandbox.stateFile) == .some(["landscape-left", "landscape-right"]))
            #expect(await daemon.stop() == .exited(0))
            mount.unmount()
        }
    }
}

/// A small tmpfs mounted on a directory, to make a real full disk (`ENOSPC`).
struct StateDirectoryMount {
    let directory: String

    /// Whether this process may mount (root with CAP_SYS_ADMIN, not in a locked-down container); tried once.
    static let isPermitted: Bool = {
        var template = Array("/tmp/orientd-mount-probe.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return false }
        let directory = String(cString: made)
        defer { rmdir(directory) }
        guard Glibc.mount("tmpfs", directory, "tmpfs", 0, "size=4k") == 0 else { return false }
        umount2(directory, Int32(MNT_DETACH))
        return true
    }()

    /// Creates `directory` and mounts a tmpfs with `options` on it.
    init(_ directory: String, options: String) throws {
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        guard Glibc.mount("tmpfs", directory, "tmpfs", 0, options) == 0 else {
            throw DaemonTestError(description: "mount tmpfs on \(directory): \(Errno.current)")
        }
    }

    /// Changes the mount's options (its size) in place, keeping its files.
    func remount(options: String) throws {
        guard Glibc.mount("tmpfs", directory, "tmpfs", UInt(MS_REMOUNT), options) == 0 else {
            throw DaemonTestError(description: "remount \(directory): \(Errno.current)")
        }
    }

    func unmount() {
        umount2(directory, Int32(MNT_DETACH))
    }
}
