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

import SensorDevices

/// The effective configuration (CONFIG.md): the settings the files give, and where each value
/// came from.
///
/// The files are `/etc/orientd/orientd.conf` (or the one given with `--config`, which replaces
/// it), then `/etc/orientd/orientd.conf.d/*.conf` in lexical order; a later value wins. A missing
/// file or folder is fine: its keys keep their defaults.
public struct Configuration: Sendable {
    /// The main file.
    public static let defaultFile = "/etc/orientd/orientd.conf"
    /// The drop-in folder, read after the main file, also with `--config`.
    public static let defaultDropInFolder = "/etc/orientd/orientd.conf.d"

    /// Where a value came from.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// CONFIG.md's default.
        case defaultValue
        /// A line of a file.
        case file(String, line: Int)

        public var description: String {
            switch self {
            case .defaultValue: "default"
            case .file(let path, let line): "\(path):\(line)"
            }
        }
    }

    /// One key's effective value.
    public struct Entry: Sendable, Hashable {
        /// The section, without brackets.
        public var section: String
        /// The key.
        public var key: String
        /// The value as written (or the default).
        public var value: String
        /// Where it came from.
        public var source: Source
    }

    /// The files read, in order, and whether each existed.
    public private(set) var files: [(path: String, found: Bool)] = []
    /// Every key of CONFIG.md, in its order, with its effective value.
    public private(set) var entries: [Entry]
    /// The settings the entries give; the caller applies its command-line overrides here.
    public var settings = DaemonSettings()

    /// Reads the files.
    /// - Parameters:
    ///   - file: the main file; missing is fine.
    ///   - dropInFolder: the drop-in folder; missing is fine.
    /// - Throws: ``ConfigurationErrors`` with every mistake of every file.
    public static func load(
        file: String = defaultFile,
        dropInFolder: String = defaultDropInFolder
    ) throws(ConfigurationErrors) -> Configuration {
        var texts: [(path: String, text: String?)] = []
        var errors: [ConfigurationError] = []
        do {
            texts.append((file, try ConfigurationFiles.read(file)))
            for path in try ConfigurationFiles.dropIns(in: dropInFolder) {
                texts.append((path, try ConfigurationFiles.read(path)))
            }
        } catch {
            errors.append(error)
        }
        return try Configuration(texts: texts, errors: errors)
    }

    /// The configuration the texts give, read in order (nil: a missing file).
    /// - Throws: ``ConfigurationErrors`` with every mistake.
    public init(texts: [(path: String, text: String?)]) throws(ConfigurationErrors) {
        try self.init(texts: texts, errors: [])
    }

    private init(
        texts: [(path: String, text: String?)],
        errors earlier: [ConfigurationError]
    ) throws(ConfigurationErrors) {
        var errors = earlier
        var winners: [String: (value: String, source: Source)] = [:]
        for (path, text) in texts {
            files.append((path, text != nil))
            guard let text else { continue }
            let parsed = ConfigurationParser.parse(text, file: path)
            errors += parsed.errors
            for assignment in parsed.assignments {
                winners[assignment.key.qualifiedName] = (assignment.value, .file(path, line: assignment.line))
            }
        }
        guard errors.isEmpty else { throw ConfigurationErrors(errors) }
        entries = ConfigurationKey.all.map { key in
            let winner = winners[key.qualifiedName] ?? (key.defaultValue, .defaultValue)
            return Entry(section: key.section, key: key.name, value: winner.value, source: winner.source)
        }
        for (key, entry) in zip(ConfigurationKey.all, entries) where entry.source != .defaultValue {
            key.apply(entry.value, &settings)
        }
        if let error = Self.idleRateAboveRate(settings, entry("IdleRate", in: "Sensor")) {
            throw ConfigurationErrors([error])
        }
    }

    /// `IdleRate=` above `Rate=`: the error, on the line that sets `IdleRate=`; nil when it is within 1…`Rate=`.
    private static func idleRateAboveRate(_ settings: DaemonSettings, _ idle: Entry?) -> ConfigurationError? {
        guard let idle, case .file(let path, let line) = idle.source, settings.sensor.idleRate > settings.sensor.rate
        else { return nil }
        let rate = ConfigurationKey.format(settings.sensor.rate)
        return ConfigurationError(
            file: path,
            line: line,
            section: "Sensor",
            key: "IdleRate",
            value: idle.value,
            reason: .badValue("out of range: above Rate=\(rate)"),
            allowed: "samples per second while still, 1–\(rate) (at most Rate=)"
        )
    }

    /// The entry of `key` in `section`.
    public func entry(_ key: String, in section: String) -> Entry? {
        entries.first { $0.section == section && $0.key == key }
    }

    /// The effective configuration as `orientd check-config` prints it: the files read, then
    /// every key by section with its value and its source.
    public var report: String {
        var lines = files.map { "# \($0.path)\($0.found ? "" : " (not found)")" }
        var section = ""
        for entry in entries {
            if entry.section != section {
                section = entry.section
                lines.append("")
                lines.append("[\(section)]")
            }
            let assignment = "\(entry.key)=\(entry.value)"
            let padding = String(repeating: " ", count: max(1, 32 - assignment.count))
            lines.append(assignment + padding + "# \(entry.source)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
