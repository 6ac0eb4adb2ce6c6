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
import Synchronization

/// A log handler whose level follows `[Log] Level=`, so that a reload changes it for every logger
/// the daemon handed out. It wraps the handler the program bootstrapped.
struct ConfigurationLogHandler: LogHandler {
    /// The level shared by every copy of the handler.
    final class Level: Sendable {
        private let value: Mutex<Logger.Level>

        init(_ level: Logger.Level) {
            value = Mutex(level)
        }

        var current: Logger.Level {
            get { value.withLock { $0 } }
            set { value.withLock { $0 = newValue } }
        }
    }

    private var base: any LogHandler
    let level: Level

    /// Wraps `base`, which then sees every record at or above `level`.
    init(wrapping base: any LogHandler, level: Level) {
        var base = base
        base.logLevel = .trace
        self.base = base
        self.level = level
    }

    var logLevel: Logger.Level {
        get { level.current }
        set { level.current = newValue }
    }

    var metadata: Logger.Metadata {
        get { base.metadata }
        set { base.metadata = newValue }
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { base[metadataKey: key] }
        set { base[metadataKey: key] = newValue }
    }

    func log(event: LogEvent) {
        base.log(event: event)
    }
}

extension Logger {
    /// This logger with its level taken from `level`, shared with every other logger made so.
    func following(_ level: ConfigurationLogHandler.Level) -> Logger {
        let handler = ConfigurationLogHandler(wrapping: self.handler, level: level)
        return Logger(label: label) { _ in handler }
    }
}
