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

public import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

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
