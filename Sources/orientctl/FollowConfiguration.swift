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

import FoundationEssentials
import OrientationCore

/// The user's defaults for `orientctl follow`: `~/.config/orientd/follow.conf` (under `$XDG_CONFIG_HOME` when
/// it is set), in the daemon's INI style. Every key is optional; an option on the command line wins.
///
/// ```ini
/// [Follow]
/// Backend=wlr
/// Output=DSI-1
/// Touch=ELAN Touchscreen
/// PanelOffset=270
/// PauseExternal=yes
/// NaturalInLaptopMode=yes
/// Then=notify-send "rotated to $ORIENTD_INTERFACE"
/// TimeoutSec=10
/// ```
struct FollowConfiguration: Sendable, Equatable {
    /// The keys of `[Follow]`, as the file spells them.
    static let keys = [
        "Backend", "Output", "Touch", "PanelOffset", "PauseExternal", "NaturalInLaptopMode", "Then", "Exec",
        "TimeoutSec",
    ]

    var backend: BackendKind?
    var output: String?
    /// `Touch=` lines, one device each (a name may hold spaces); several lines add up.
    var touch: [String] = []
    var panelOffset: Int?
    var pauseExternal: Bool?
    var naturalInLaptopMode: Bool?
    var then: String?
    var exec: String?
    var timeoutSeconds: Double?

    /// Where the file is: `$XDG_CONFIG_HOME/orientd/follow.conf`, else `$HOME/.config/orientd/follow.conf`.
    static func path(in environment: [String: String]) -> String? {
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") { return base + "/orientd/follow.conf" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/orientd/follow.conf"
    }

    /// Reads the file at `path`; an absent file is an empty configuration.
    /// - Throws: the first mistake, naming the file, the line, the key and what is allowed.
    init(path: String?) throws(FollowConfigurationError) {
        guard let path, let data = FileManager.default.contents(atPath: path) else {
            self.init()
            return
        }
        try self.init(parsing: String(decoding: data, as: UTF8.self), file: path)
    }

    /// No settings: every option at its default.
    init() {}

    /// Parses the text of a file.
    init(parsing text: String, file: String) throws(FollowConfigurationError) {
        var section: String?
        var seen: Set<String> = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingWhitespace()
            let mistake = { (reason: String) in FollowConfigurationError(message: "\(file):\(index + 1): \(reason)") }
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count >= 2 else { throw mistake("'\(line)' is not a [Section] line") }
                section = line.dropFirst().dropLast().trimmingWhitespace()
                guard section == "Follow" else {
                    throw mistake("unknown section [\(section ?? "")]; follow.conf has only [Follow]")
                }
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { throw mistake("'\(line)' is not Key=Value") }
            let key = line[..<equals].trimmingWhitespace()
            let value = line[line.index(after: equals)...].trimmingWhitespace()
            guard section != nil else { throw mistake("\(key)= comes before the [Follow] line") }
            guard Self.keys.contains(key) else {
                throw mistake(
                    "unknown key \(key)= in [Follow]; allowed: \(Self.keys.map { $0 + "=" }.joined(separator: ", "))"
                )
            }
            guard key == "Touch" || seen.insert(key).inserted else { throw mistake("\(key)= is set twice") }
            do throws(FollowConfigurationError) {
                try set(key, to: value)
            } catch {
                throw mistake("\(key)=\(value): \(error.message)")
            }
        }
    }

    private mutating func set(_ key: String, to value: String) throws(FollowConfigurationError) {
        func flag() throws(FollowConfigurationError) -> Bool {
            switch value.lowercased() {
            case "yes", "true", "on", "1": return true
            case "no", "false", "off", "0": return false
            default: throw FollowConfigurationError(message: "allowed: yes, no")
            }
        }
        let text = value.isEmpty ? nil : value
        switch key {
        case "Backend":
            guard value.isEmpty || BackendKind(rawValue: value) != nil else {
                throw FollowConfigurationError(
                    message: "allowed: \(BackendKind.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            backend = BackendKind(rawValue: value)
        case "Output": output = text
        case "Touch": if let text { touch.append(text) }
        case "PanelOffset":
            guard let degrees = Int(value), [0, 90, 180, 270].contains(degrees) else {
                throw FollowConfigurationError(message: "allowed: 0, 90, 180, 270 (degrees counter-clockwise)")
            }
            panelOffset = degrees
        case "PauseExternal": pauseExternal = try flag()
        case "NaturalInLaptopMode": naturalInLaptopMode = try flag()
        case "Then": then = text
        case "Exec": exec = text
        default:
            guard let seconds = Double(value), FollowOptions.timeoutRange.contains(seconds) else {
                throw FollowConfigurationError(message: "allowed: seconds from 0.1 to 3600")
            }
            timeoutSeconds = seconds
        }
    }
}

/// A mistake in follow.conf, with the file and the line.
struct FollowConfigurationError: Error, Equatable {
    var message: String
}

/// The settings of `follow` that the applier needs besides the backend.
enum FollowOptions {
    /// The seconds `--timeout` and `TimeoutSec=` accept.
    static let timeoutRange = 0.1...3600.0
    /// The default of `--timeout`.
    static let defaultTimeoutSeconds = 10.0
}
