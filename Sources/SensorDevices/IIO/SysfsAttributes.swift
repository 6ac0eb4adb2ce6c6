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

import IniFormat
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Reads and writes attribute files of one device in sysfs directly, for what libiio does not
/// offer (the `scan_elements/*_en` switches it resets when a buffer closes; a value's whole text,
/// of which libiio drops the last character, taking it for the kernel's newline).
struct SysfsAttributes {
    /// The device's sysfs folder.
    let path: String

    /// The attribute's text without the trailing newline and NUL; nil if it cannot be read.
    func read(_ name: String) -> String? {
        // sysfs shows an attribute in at most a page.
        guard let bytes = try? FileDescriptor.contents(ofFile: path + "/" + name, maximumSize: 4096) else { return nil }
        return String(decoding: bytes.filter { $0 != 0 }, as: UTF8.self).trimmingWhitespace()
    }

    /// Writes the attribute (the whole file: a shorter value leaves nothing of a longer one); false if it cannot be
    /// written.
    @discardableResult
    func write(_ name: String, _ value: String) -> Bool {
        guard let file = try? FileDescriptor.open(path + "/" + name, O_WRONLY | O_TRUNC) else { return false }
        defer { file.close() }
        return (try? file.writeAll(value)) != nil
    }

    /// The names of the files in a subfolder (`scan_elements`), or none.
    func list(_ folder: String) -> [String] {
        guard let directory = opendir(path + "/" + folder) else { return [] }
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
}
