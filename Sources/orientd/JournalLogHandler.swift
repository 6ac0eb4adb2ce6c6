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
import SystemSupport

#if canImport(Glibc)
import Glibc
#endif

/// Writes log records to standard error: with `<N>` priority prefixes that journald reads when
/// running under systemd (`$JOURNAL_STREAM` set), else as `orientd: level: message` for a terminal.
struct JournalLogHandler: LogHandler {
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level
    private let journal: Bool

    init(label: String, level: Logger.Level) {
        logLevel = level
        journal = getenv("JOURNAL_STREAM") != nil
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var text = journal ? "<\(Self.priority(event.level))>" : "orientd: \(Self.name(event.level)): "
        text += "\(event.message)"
        let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
        if !all.isEmpty {
            text += " (" + all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") + ")"
        }
        text += "\n"
        try? FileDescriptor.standardError.writeAll(text)
    }

    /// syslog priorities: 7 debug … 2 critical.
    private static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    private static func name(_ level: Logger.Level) -> String {
        level == .trace ? "debug" : "\(level)"
    }
}
