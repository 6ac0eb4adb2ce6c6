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

/// Reads a file (or standard input for `-`) line by line, through read(2).
final class LineSource {
    /// How the source is named in messages.
    let name: String
    private let file: FileDescriptor
    private let ownsDescriptor: Bool

    /// Opens the file, or standard input for `-`.
    /// - Throws: ``CommandFailure`` saying why the file cannot be opened.
    init(path: String) throws {
        if path == "-" {
            name = "standard input"
            file = FileDescriptor(rawValue: STDIN_FILENO)
            ownsDescriptor = false
            return
        }
        name = path
        do throws(Errno) {
            file = try FileDescriptor.open(path)
        } catch {
            throw CommandFailure("cannot open '\(path)': \(error)")
        }
        ownsDescriptor = true
    }

    deinit {
        if ownsDescriptor { file.close() }
    }

    /// Calls `body` with each line, without its newline; a last line without a newline counts too.
    func forEachLine(_ body: (Substring) throws -> Void) throws {
        var pending: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count: Int
            do throws(Errno) {
                count = try file.read(into: &chunk)
            } catch {
                throw CommandFailure("cannot read '\(name)': \(error)")
            }
            if count == 0 { break }
            var start = 0
            for index in 0..<count where chunk[index] == UInt8(ascii: "\n") {
                pending.append(contentsOf: chunk[start..<index])
                try body(Substring(String(decoding: pending, as: UTF8.self)))
                pending.removeAll(keepingCapacity: true)
                start = index + 1
            }
            pending.append(contentsOf: chunk[start..<count])
        }
        if !pending.isEmpty {
            try body(Substring(String(decoding: pending, as: UTF8.self)))
        }
    }
}
