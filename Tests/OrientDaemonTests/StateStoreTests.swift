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

import Logging
import OrientDaemon
import OrientationCore
import Synchronization
import SystemSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct StateStoreTests {
    static let locks: [InterfaceOrientationMask?] = [
        nil, .portrait, .landscapeRight, .landscape, [.portraitUpsideDown, .landscapeLeft], .all,
    ]

    @Test(arguments: locks)
    func roundTrip(lock: InterfaceOrientationMask?) throws {
        try withTemporaryDirectory { directory in
            let log = RecordingLog()
            try StateStore(directory: directory, logger: log.logger).save(PersistedState(lock: lock))
            let loaded = StateStore(directory: directory, logger: log.logger).load()
            #expect(loaded == PersistedState(lock: lock))
            #expect(log.records(atLeast: .warning).isEmpty)
        }
    }

    static let files: [(InterfaceOrientationMask?, String)] = [
        (nil, #"{"version": 1, "lock": null, "tablet_mode": "auto"}"#),
        (.portraitUpsideDown, #"{"version": 1, "lock": ["portrait-upside-down"], "tablet_mode": "auto"}"#),
        (.landscape, #"{"version": 1, "lock": ["landscape-left", "landscape-right"], "tablet_mode": "auto"}"#),
        (
            .all,
            #"{"version": 1, "lock": ["portrait", "portrait-upside-down", "landscape-left", "landscape-right"], "#
                + #""tablet_mode": "auto"}"#
        ),
    ]

    @Test(arguments: files)
    func exactFileContents(lock: InterfaceOrientationMask?, json: String) throws {
        try withTemporaryDirectory { directory in
            try StateStore(directory: directory, logger: RecordingLog().logger).save(PersistedState(lock: lock))
            #expect(readText(directory + "/state.json") == json + "\n")
            #expect(fileMode(directory + "/state.json") == 0o644)
        }
    }

    @Test(arguments: [true, false, nil] as [Bool?])
    func theManualTabletModeRoundTrips(tabletMode: Bool?) throws {
        try withTemporaryDirectory { directory in
            let state = PersistedState(lock: .landscape, tabletMode: tabletMode)
            try StateStore(directory: directory, logger: RecordingLog().logger).save(state)
            let word = tabletMode.map { $0 ? "on" : "off" } ?? "auto"
            #expect(readText(directory + "/state.json")?.hasSuffix(#", "tablet_mode": "\#(word)"}"# + "\n") == true)
            #expect(StateStore(directory: directory, logger: RecordingLog().logger).load() == state)
        }
    }

    @Test func loadRemovesTheTemporaryFilesOfSavesCutShortAndNothingElse() throws {
        try withTemporaryDirectory { directory in
            let store = StateStore(directory: directory, logger: RecordingLog().logger)
            try store.save(PersistedState(lock: .portrait))
            // What a crash between mkstemp and rename leaves, and names that are not a save's temporary file.
            for name in [
                ".state.json.a1B2c3", ".state.json.Zz9_yY", ".state.json.toolong", "state.json.corrupt", "notes",
            ] {
                writeText(directory + "/" + name, "{")
            }
            #expect(store.load() == PersistedState(lock: .portrait))
            #expect(listDirectory(directory) == [".state.json.toolong", "notes", "state.json", "state.json.corrupt"])
        }
    }

    @Test func emptyMaskIsUnlocked() {
        var state = PersistedState(lock: [])
        #expect(state.lock == nil)
        state.lock = []
        #expect(state.lock == nil)
        #expect(state == .defaults)
    }

    static let variants: [(String, InterfaceOrientationMask?)] = [
        (#"{"lock":["landscape-right","portrait"],"version":1}"#, [.portrait, .landscapeRight]),
        (#"{"version": 1, "lock": ["portrait", "portrait"], "comment": "ignored"}"#, .portrait),
        (" \n{ \"version\" : 1 , \"lock\" : null }\n\n", nil),
        // Written before the manual tablet mode existed, and by a daemon that knows it.
        (#"{"version": 1, "lock": ["portrait"]}"#, .portrait),
        (#"{"version": 1, "lock": ["portrait"], "tablet_mode": "auto"}"#, .portrait),
    ]

    @Test(arguments: variants)
    func acceptedVariants(text: String, lock: InterfaceOrientationMask?) throws {
        try withTemporaryDirectory { directory in
            writeText(directory + "/state.json", text)
            let log = RecordingLog()
            #expect(StateStore(directory: directory, logger: log.logger).load() == PersistedState(lock: lock))
            #expect(log.records(atLeast: .warning).isEmpty)
            #expect(listDirectory(directory) == ["state.json"])
        }
    }

    @Test(arguments: [
        ("garbage", "this is not json\n", "not valid JSON"),
        ("empty file", "", "not valid JSON"),
        ("empty object", "{}", "no 'version' key"),
        ("not an object", "[1, 2]", "not a JSON object"),
        ("wrong version", #"{"version": 2, "lock": null}"#, "unsupported version 2"),
        ("version as text", #"{"version": "1", "lock": null}"#, "'version' has the wrong type"),
        ("no lock key", #"{"version": 1}"#, "no 'lock' key"),
        ("unknown name", #"{"version": 1, "lock": ["sideways"]}"#, "unknown orientation 'sideways'"),
        ("mask name", #"{"version": 1, "lock": ["landscape"]}"#, "unknown orientation 'landscape'"),
        ("unknown orientation", #"{"version": 1, "lock": ["unknown"]}"#, "unknown orientation 'unknown'"),
        ("empty list", #"{"version": 1, "lock": []}"#, "empty list"),
        ("lock as text", #"{"version": 1, "lock": "portrait"}"#, "'lock' has the wrong type"),
        ("tablet mode", #"{"version": 1, "lock": null, "tablet_mode": true}"#, "'tablet_mode' has the wrong type"),
    ])
    func corruptFileIsSetAside(name: String, text: String, reason: String) throws {
        try withTemporaryDirectory { directory in
            let path = directory + "/state.json"
            writeText(path, text)
            writeText(path + ".corrupt", "an older corrupt file")
            let log = RecordingLog()
            let store = StateStore(directory: directory, logger: log.logger)

            #expect(store.load() == .defaults)
            #expect(readText(path + ".corrupt") == text, "the corrupt file replaces the older one, byte for byte")
            #expect(listDirectory(directory) == ["state.json.corrupt"])
            let warnings = log.records(atLeast: .warning)
            try #require(warnings.count == 1)
            #expect(warnings[0].metadata["file"] == "\(path)")
            #expect(warnings[0].metadata["reason"]?.description.contains(reason) == true, "\(warnings[0])")
            #expect(warnings[0].metadata["moved_to"] == "\(path).corrupt")

            try store.save(PersistedState(lock: .landscapeLeft))
            #expect(store.load() == PersistedState(lock: .landscapeLeft))
        }
    }

    @Test func binaryFileIsSetAside() throws {
        try withTemporaryDirectory { directory in
            let bytes: [UInt8] = [0xFF, 0xFE, 0x00, 0x7B]
            writeBytes(directory + "/state.json", bytes)
            let log = RecordingLog()
            #expect(StateStore(directory: directory, logger: log.logger).load() == .defaults)
            #expect(readBytes(directory + "/state.json.corrupt") == bytes)
            #expect(listDirectory(directory) == ["state.json.corrupt"])
            #expect(log.records(atLeast: .warning).first?.metadata["reason"] == "not valid JSON")
        }
    }

    @Test func oversizedFileIsSetAside() throws {
        try withTemporaryDirectory { directory in
            writeText(directory + "/state.json", String(repeating: " ", count: 70_000) + "{}")
            let log = RecordingLog()
            #expect(StateStore(directory: directory, logger: log.logger).load() == .defaults)
            #expect(listDirectory(directory) == ["state.json.corrupt"])
            #expect(log.records(atLeast: .warning).first?.metadata["reason"]?.description.contains("too large") == true)
        }
    }

    @Test func unreadableFileIsSetAside() throws {
        try withTemporaryDirectory { directory in
            // A directory opens for reading but read(2) fails with EISDIR: a file that cannot be read.
            #expect(mkdir(directory + "/state.json", 0o755) == 0)
            let log = RecordingLog()
            #expect(StateStore(directory: directory, logger: log.logger).load() == .defaults)
            #expect(listDirectory(directory) == ["state.json.corrupt"])
            let reason = log.records(atLeast: .warning).first?.metadata["reason"]?.description
            #expect(reason?.contains("Is a directory") == true, "\(reason ?? "no warning")")
        }
    }

    @Test func missingFileGivesDefaultsQuietly() throws {
        try withTemporaryDirectory { directory in
            let log = RecordingLog()
            #expect(StateStore(directory: directory, logger: log.logger).load() == .defaults)
            #expect(log.records(atLeast: .warning).isEmpty)
            #expect(log.records(atLeast: .info).count == 1)
            #expect(listDirectory(directory).isEmpty)
        }
    }

    @Test func loadCreatesMissingDirectory() throws {
        try withTemporaryDirectory { directory in
            let stateDirectory = directory + "/var/lib/orientd"
            let store = StateStore(directory: stateDirectory, logger: RecordingLog().logger)
            #expect(store.load() == .defaults)
            var status = stat()
            #expect(stat(stateDirectory, &status) == 0)
            #expect(status.st_mode & S_IFMT == S_IFDIR)
            #expect(status.st_mode & 0o700 == 0o700)
            try store.save(PersistedState(lock: .portrait))
            #expect(store.load() == PersistedState(lock: .portrait))
        }
    }

    @Test func uncreatableDirectoryIsReported() throws {
        try withTemporaryDirectory { directory in
            writeText(directory + "/file", "x")
            let log = RecordingLog()
            #expect(StateStore(directory: directory + "/file/state", logger: log.logger).load() == .defaults)
            let warnings = log.records(atLeast: .warning)
            #expect(warnings.count == 1)
            #expect(warnings.first?.metadata["error"]?.description.contains("Not a directory") == true)
        }
    }

    @Test func savesLeaveNoTemporaryFiles() throws {
        try withTemporaryDirectory { directory in
            let store = StateStore(directory: directory, logger: RecordingLog().logger)
            for lock in Self.locks + Self.locks.reversed() {
                try store.save(PersistedState(lock: lock))
                #expect(listDirectory(directory) == ["state.json"])
            }
            #expect(store.load() == PersistedState(lock: nil))
        }
    }

    @Test(arguments: [
        ("missing", false, ENOENT),
        ("a file", true, ENOTDIR),
    ])
    func saveIntoNoDirectoryThrows(name: String, makeFile: Bool, errorNumber: Int32) throws {
        try withTemporaryDirectory { directory in
            let target = directory + "/target"
            if makeFile { writeText(target, "not a directory") }
            let store = StateStore(directory: target, logger: RecordingLog().logger)
            let error = #expect(throws: StateStoreError.self) { try store.save(PersistedState(lock: .portrait)) }
            #expect(error?.operation == .openDirectory)
            #expect(error?.errno == Errno(errorNumber))
            #expect(error?.path == target)
            #expect(error?.description.hasPrefix("open of the directory \(target): ") == true)
            #expect(listDirectory(directory) == (makeFile ? ["target"] : []))
            if makeFile { #expect(readText(target) == "not a directory") }
        }
    }

    @Test func failedRenameKeepsOldStateAndRemovesTemporaryFile() throws {
        try withTemporaryDirectory { directory in
            // rename(2) of a file over a non-empty directory fails with EISDIR after the temporary file is complete.
            #expect(mkdir(directory + "/state.json", 0o755) == 0)
            writeText(directory + "/state.json/keep", "old")
            let store = StateStore(directory: directory, logger: RecordingLog().logger)
            let error = #expect(throws: StateStoreError.self) { try store.save(PersistedState(lock: .landscape)) }
            #expect(error?.operation == .rename)
            #expect(error?.errno == Errno(EISDIR))
            #expect(error?.path == directory + "/state.json")
            #expect(listDirectory(directory) == ["state.json"])
            #expect(readText(directory + "/state.json/keep") == "old")
        }
    }

    @Test(.enabled(if: Tmpfs.isMountPermitted, "mounting a tmpfs needs CAP_SYS_ADMIN"))
    func fullDiskKeepsOldState() throws {
        // One 4 KiB page: the first state file takes it, so the next temporary file cannot get a block.
        try Tmpfs.with(options: "size=4k,mode=0755") { directory in
            let store = StateStore(directory: directory, logger: RecordingLog().logger)
            try store.save(PersistedState(lock: .landscape))
            let error = #expect(throws: StateStoreError.self) { try store.save(PersistedState(lock: .portrait)) }
            #expect(error?.operation == .write)
            #expect(error?.errno == Errno(ENOSPC))
            #expect(error?.description.contains("No space left on device") == true)
            #expect(listDirectory(directory) == ["state.json"])
            #expect(store.load() == PersistedState(lock: .landscape))
        }
    }

    @Test(.enabled(if: Tmpfs.isMountPermitted, "mounting a tmpfs needs CAP_SYS_ADMIN"))
    func readOnlyFileSystemKeepsOldState() throws {
        try Tmpfs.with(options: "size=64k,mode=0755") { directory in
            let store = StateStore(directory: directory, logger: RecordingLog().logger)
            try store.save(PersistedState(lock: .portraitUpsideDown))
            #expect(mount("tmpfs", directory, "tmpfs", UInt(MS_REMOUNT | MS_RDONLY), nil) == 0)
            let error = #expect(throws: StateStoreError.self) { try store.save(PersistedState(lock: nil)) }
            #expect(error?.operation == .createTemporaryFile)
            #expect(error?.errno == Errno(EROFS))
            #expect(listDirectory(directory) == ["state.json"])
            #expect(store.load() == PersistedState(lock: .portraitUpsideDown))
        }
    }
}

// MARK: - Helpers shared by the suites of this target

/// Runs `body` with a new empty directory under /tmp, removed with its contents afterwards.
func withTemporaryDirectory(_ body: (String) throws -> Void) throws {
    var template = Array("/tmp/orientd-tests.XXXXXX".utf8CString)
    let created = mkdtemp(&template)
    try #require(created != nil, "mkdtemp: \(Errno.current)")
    let directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    defer { removeTree(directory) }
    try body(directory)
}

/// Mounts of a small tmpfs, to make real full-disk and read-only failures.
enum Tmpfs {
    /// Whether this process may mount (root with CAP_SYS_ADMIN, not in a locked-down container); tried once.
    static let isMountPermitted: Bool = {
        var template = Array("/tmp/orientd-mount-probe.XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { return false }
        let directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { rmdir(directory) }
        guard mount("tmpfs", directory, "tmpfs", 0, "size=4k") == 0 else { return false }
        umount2(directory, Int32(MNT_DETACH))
        return true
    }()

    /// Runs `body` with a tmpfs mounted on a new temporary directory, unmounted and removed afterwards.
    static func with(options: String, _ body: (String) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            try #require(
                mount("tmpfs", directory, "tmpfs", 0, options) == 0,
                "mount: \(Errno.current)"
            )
            defer { umount2(directory, Int32(MNT_DETACH)) }
            try body(directory)
        }
    }
}

/// A log handler that keeps what it is given, for tests to look at.
struct RecordingLog {
    /// One log call.
    struct Record: Sendable, CustomStringConvertible {
        var level: Logger.Level
        var message: String
        var metadata: Logger.Metadata

        var description: String { "\(level): \(message) \(metadata)" }
    }

    private let storage = Storage()

    /// A logger writing here, at every level.
    var logger: Logger {
        Logger(label: "test") { _ in Handler(storage: storage) }
    }

    /// The records at `level` or more severe, in order.
    func records(atLeast level: Logger.Level) -> [Record] {
        storage.records.withLock { $0 }.filter { $0.level >= level }
    }

    private final class Storage: Sendable {
        let records = Mutex<[Record]>([])
    }

    private struct Handler: LogHandler {
        let storage: Storage
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let record = Record(
                level: event.level,
                message: "\(event.message)",
                metadata: metadata.merging(event.metadata ?? [:]) { _, new in new }
            )
            storage.records.withLock { $0.append(record) }
        }
    }
}

/// The file's bytes, or nil if it cannot be read.
func readBytes(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return count == 0 ? bytes : nil }
        bytes += chunk.prefix(count)
    }
}

/// The file's text, or nil if it cannot be read.
func readText(_ path: String) -> String? {
    readBytes(path).map { String(decoding: $0, as: UTF8.self) }
}

/// Creates or replaces a file with the bytes.
func writeBytes(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    precondition(fd >= 0, "open \(path): \(Errno.current)")
    defer { close(fd) }
    do {
        try FileDescriptor(rawValue: fd).writeAll(bytes)
    } catch {
        preconditionFailure("write \(path): \(error)")
    }
}

/// Creates or replaces a file with the text.
func writeText(_ path: String, _ text: String) {
    writeBytes(path, Array(text.utf8))
}

/// The permission bits of a file, or nil.
func fileMode(_ path: String) -> mode_t? {
    var status = stat()
    return stat(path, &status) == 0 ? status.st_mode & 0o7777 : nil
}

/// The names in a directory, sorted, without `.` and `..`.
func listDirectory(_ path: String) -> [String] {
    guard let directory = opendir(path) else { return [] }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}

/// Removes a file or a directory with everything in it.
func removeTree(_ path: String) {
    var status = stat()
    guard lstat(path, &status) == 0 else { return }
    if status.st_mode & S_IFMT == S_IFDIR {
        for name in listDirectory(path) { removeTree(path + "/" + name) }
        rmdir(path)
    } else {
        unlink(path)
    }
}
