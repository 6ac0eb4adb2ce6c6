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

/// follow.conf's `[Apps]` rules, read again when the file changes.
struct AppRulesFile {
    let path: String?
    private var text: [UInt8]?
    private var said: String?

    init(path: String?) {
        self.path = path
    }

    /// Whether the file differs from what was last read.
    mutating func changed() -> Bool {
        current() != text
    }

    /// The rules now; a mistake is said once, and rules nothing.
    mutating func read() -> [AppRule] {
        text = current()
        do {
            // The text just read, parsed; without it, the file is read again only to say why it cannot be.
            let rules =
                if let text, let path {
                    try FollowConfiguration(parsing: String(decoding: text, as: UTF8.self), file: path).apps
                } else {
                    try FollowConfiguration(path: path).apps
                }
            said = nil
            return rules
        } catch {
            if said != error.message {
                StandardStreams.error("orientctl: \(error.message); no app is ruled until it is corrected")
            }
            said = error.message
            return []
        }
    }

    private func current() -> [UInt8]? {
        guard let path else { return nil }
        return try? FileDescriptor.contents(ofFile: path, maximumSize: FollowConfiguration.maximumFileSize)
    }
}
