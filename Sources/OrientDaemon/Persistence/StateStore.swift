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

public import Logging
public import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Keeps the ``PersistedState`` in `state.json` in the state directory, replaced atomically on every save.
///
/// A file that cannot be used is never fatal: it is logged, moved aside to `state.json.corrupt` and the
/// defaults are used, so that a broken file costs the user a lock, not the daemon.
public final class StateStore: Sendable {
    /// The state directory (`$STATE_DIRECTORY` under systemd, `/var/lib/orientd` by default).
    public let directory: String
    /// The state file: `state.json` in ``directory``.
    public let path: String
    /// Where an unusable state file is kept for inspection: `state.json.corrupt`, replacing an older one.
    public let corruptPath: String
    private let logger: Logger

    /// The largest state file read; a real one is under 100 bytes.
    private static let maximumFileSize = 64 * 1024

    /// A store for `state.json` in `directory`; nothing is read or created until ``load()``.
    public init(directory: String, logger: Logger) {
        self.directory = directory
        self.path = directory + "/state.json"
        self.corruptPath = directory + "/state.json.corrupt"
        self.logger = logger
    }

    /// Reads the saved state, creating the directory if it is missing; any problem gives the defaults.
    ///
    /// A missing file is normal (first start). A file that cannot be read or is not a version-1 state file
    /// is logged as a warning, moved to ``corruptPath`` and replaced by the defaults.
    public func load() -> PersistedState {
        guard prepareDirectory() else { return .defaults }
        removeAbandonedTemporaryFiles()
        let bytes: [UInt8]
        switch readFile() {
        case .success(let contents):
            bytes = contents
        case .failure(let error) where error.errno == .noSuchFileOrDirectory:
            logger.info("No saved state; starting unlocked", metadata: ["file": "\(path)"])
            return .defaults
        case .failure(let error):
            return setAside(reason: error.description)
        }
        do {
            return try PersistedState(fileContents: bytes)
        } catch {
            return setAside(reason: error.reason)
        }
    }

    /// Writes the state atomically: a temporary file in the same directory, written, synced and renamed over
    /// `state.json`, then the directory synced.
    ///
    /// - Throws: ``StateStoreError`` naming the step and errno when the new state could not be put in place; the
    ///   temporary file is then removed and the old `state.json` is as it was.
    public func save(_ state: PersistedState) throws(StateStoreError) {
        // Opened first so that a missing directory fails before anything is written.
        let directoryFD = try Self.check(
            retryingInterrupts { open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) },
            .openDirectory,
            directory
        )
        defer { close(directoryFD) }

        var template = Array("\(directory)/\(Self.temporaryPrefix)XXXXXX".utf8CString)
        let fd = try Self.check(mkstemp(&template), .createTemporaryFile, directory + "/.state.json.XXXXXX")
        let temporaryPath = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var isOpen = true
        do throws(StateStoreError) {
            // mkstemp has no O_CLOEXEC (mkostemp needs _GNU_SOURCE); nothing forks in between.
            try Self.check(fcntl(fd, F_SETFD, FD_CLOEXEC), .setCloseOnExec, temporaryPath)
            // mkstemp makes it 0600; the lock is no secret and `get` tells it to anyone anyway.
            try Self.check(fchmod(fd, 0o644), .setPermissions, temporaryPath)
            do throws(Errno) {
                try FileDescriptor(rawValue: fd).writeAll(state.fileContents)
            } catch {
                throw StateStoreError(.write, path: temporaryPath, errno: error)
            }
            try Self.check(retryingInterrupts { fsync(fd) }, .sync, temporaryPath)
            isOpen = false
            // Not retried: Linux releases the fd even when close reports EINTR or a late write error.
            try Self.check(close(fd), .close, temporaryPath)
            try Self.check(rename(temporaryPath, path), .rename, path)
        } catch {
            if isOpen { close(fd) }
            unlink(temporaryPath)
            throw error
        }

        // The new file is in place and visible; throwing now would have the daemon keep the old lock while the
        // new one is on disk, so a failure to make the rename durable is only logged.
        if retryingInterrupts({ fsync(directoryFD) }) < 0 {
            let error = StateStoreError(.syncDirectory, path: directory, errno: .current)
            logger.warning(
                "State saved but the directory could not be synced; a crash may bring back the previous lock",
                metadata: ["file": "\(path)", "error": "\(error)"]
            )
        }
    }

    /// Makes sure the directory exists, creating it and missing parents (0755 less the umask); false if it cannot.
    private func prepareDirectory() -> Bool {
        var status = stat()
        if stat(directory, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else {
                logger.warning(
                    "The state directory is not a directory; starting unlocked, and the lock will not be saved",
                    metadata: ["directory": "\(directory)"]
                )
                return false
            }
            return true
        }
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                let error = StateStoreError(.createDirectory, path: prefix, errno: .current)
                logger.warning(
                    "Cannot create the state directory; starting unlocked, and the lock will not be saved",
                    metadata: ["directory": "\(directory)", "error": "\(error)"]
                )
                return false
            }
        }
        logger.info("Created the state directory", metadata: ["directory": "\(directory)"])
        return true
    }

    /// Removes the temporary files of saves that a crash cut short (`.state.json.XXXXXX`, between `mkstemp` and
    /// `rename`), so that they do not pile up over months of crashes. Only one daemon uses the directory and it
    /// loads before it saves, so none of them is in use.
    private func removeAbandonedTemporaryFiles() {
        guard let stream = opendir(directory) else { return }
        var abandoned: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(Self.temporaryPrefix), name.utf8.count == Self.temporaryPrefix.utf8.count + 6 {
                abandoned.append(name)
            }
        }
        closedir(stream)
        for name in abandoned where unlink(directory + "/" + name) == 0 {
            logger.notice("Removed the temporary file of a save cut short", metadata: ["file": "\(directory)/\(name)"])
        }
    }

    /// The name of a save's temporary file before mkstemp's six characters.
    private static let temporaryPrefix = ".state.json."

    /// The whole file, up to ``maximumFileSize``; a larger one is reported as `EFBIG`.
    private func readFile() -> Result<[UInt8], StateStoreError> {
        do throws(Errno) {
            return .success(try FileDescriptor.contents(ofFile: path, maximumSize: Self.maximumFileSize))
        } catch {
            return .failure(StateStoreError(.read, path: path, errno: error))
        }
    }

    /// Logs why the file is unusable, moves it to ``corruptPath`` and returns the defaults.
    private func setAside(reason: String) -> PersistedState {
        var metadata: Logger.Metadata = ["file": "\(path)", "reason": "\(reason)"]
        if rename(path, corruptPath) == 0 {
            metadata["moved_to"] = "\(corruptPath)"
        } else {
            metadata["move_error"] = "\(StateStoreError(.setAside, path: corruptPath, errno: .current))"
        }
        logger.warning("The saved state cannot be used; starting unlocked", metadata: metadata)
        return .defaults
    }

    /// Returns `result` unless it is -1, in which case it throws the step's error with `errno`.
    @discardableResult
    private static func check<Value: FixedWidthInteger>(
        _ result: Value,
        _ operation: StateStoreError.Operation,
        _ path: String
    ) throws(StateStoreError) -> Value {
        guard result == -1 else { return result }
        throw StateStoreError(operation, path: path, errno: .current)
    }
}

/// A failed step of reading or saving the state, with the file it was about and the errno.
public struct StateStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The step that failed, named after its system call.
    public struct Operation: Sendable, Hashable, CustomStringConvertible {
        private enum Code: Sendable, Hashable {
            case createDirectory
            case read
            case setAside
            case openDirectory
            case createTemporaryFile
            case setCloseOnExec
            case setPermissions
            case write
            case sync
            case close
            case rename
            case syncDirectory
        }

        private let code: Code

        private init(_ code: Code) {
            self.code = code
        }

        /// Creating the missing state directory (`mkdir`).
        public static let createDirectory = Operation(.createDirectory)
        /// Opening or reading `state.json` (`open`, `read`).
        public static let read = Operation(.read)
        /// Moving an unusable file to `state.json.corrupt` (`rename`).
        public static let setAside = Operation(.setAside)
        /// Opening the state directory before a save (`open`).
        public static let openDirectory = Operation(.openDirectory)
        /// Creating the temporary file (`mkstemp`).
        public static let createTemporaryFile = Operation(.createTemporaryFile)
        /// Keeping the temporary file's descriptor out of programs the daemon starts (`fcntl`).
        public static let setCloseOnExec = Operation(.setCloseOnExec)
        /// Making the temporary file readable by all (`fchmod`).
        public static let setPermissions = Operation(.setPermissions)
        /// Writing the temporary file (`write`).
        public static let write = Operation(.write)
        /// Flushing the temporary file to disk (`fsync`).
        public static let sync = Operation(.sync)
        /// Closing the temporary file (`close`).
        public static let close = Operation(.close)
        /// Putting the temporary file in place of `state.json` (`rename`).
        public static let rename = Operation(.rename)
        /// Flushing the directory after the rename (`fsync`).
        public static let syncDirectory = Operation(.syncDirectory)

        /// The step as a system call name with its purpose, such as `write` or `fsync of the directory`.
        public var description: String {
            switch code {
            case .createDirectory: "mkdir"
            case .read: "read"
            case .setAside: "rename to .corrupt"
            case .openDirectory: "open of the directory"
            case .createTemporaryFile: "mkstemp"
            case .setCloseOnExec: "fcntl(F_SETFD)"
            case .setPermissions: "fchmod"
            case .write: "write"
            case .sync: "fsync"
            case .close: "close"
            case .rename: "rename"
            case .syncDirectory: "fsync of the directory"
            }
        }
    }

    /// The step that failed.
    public let operation: Operation
    /// The file or directory the step was about; for ``Operation/rename``, the destination `state.json`.
    public let path: String
    /// The error the system call reported, such as `ENOSPC`.
    public let errno: Errno

    init(_ operation: Operation, path: String, errno: Errno) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// The failure as one line, such as `write /var/lib/orientd/.state.json.Xa81Qz: No space left on device`.
    public var description: String {
        "\(operation) \(path): \(errno)"
    }
}
