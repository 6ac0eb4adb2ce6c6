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

import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Reading configuration files and listing drop-in folders with plain system calls.
enum ConfigurationFiles {
    /// The contents of `path`; nil when it does not exist.
    /// - Throws: ``ConfigurationError`` with `unreadable` for any other failure (permissions, a folder).
    static func read(_ path: String) throws(ConfigurationError) -> String? {
        do throws(Errno) {
            return String(decoding: try FileDescriptor.contents(ofFile: path), as: UTF8.self)
        } catch  where error == .noSuchFileOrDirectory {
            return nil
        } catch {
            throw unreadable(path, error.rawValue)
        }
    }

    /// The `*.conf` files of `folder` in lexical order, skipping hidden files and anything that is
    /// not a regular file (as systemd does); none when the folder does not exist.
    /// - Throws: ``ConfigurationError`` with `unreadable` when the folder cannot be listed.
    static func dropIns(in folder: String) throws(ConfigurationError) -> [String] {
        guard let directory = opendir(folder) else {
            if errno == ENOENT || errno == ENOTDIR { return [] }
            throw unreadable(folder, errno)
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: pointer.pointee)) {
                    String(cString: $0)
                }
            }
            guard name.hasSuffix(".conf"), !name.hasPrefix(".") else { continue }
            var info = stat()
            guard stat(folder + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            names.append(name)
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { folder + "/" + $0 }
    }

    private static func unreadable(_ path: String, _ code: Int32) -> ConfigurationError {
        ConfigurationError(file: path, line: nil, reason: .unreadable("\(Errno(code))"))
    }
}
