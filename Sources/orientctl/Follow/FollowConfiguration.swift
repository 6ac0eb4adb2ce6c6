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
import OrientationCore
import SystemSupport

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
/// Suggest=yes
/// Then=notify-send "rotated to $ORIENTD_INTERFACE"
/// TimeoutSec=10
///
/// [Apps]
/// mpv=landscape
/// org.pwmt.zathura=portrait
/// steam_app_*=landscape-right
/// ```
///
/// `[Apps]` maps an app (a glob of its `app_id` or X11 class) to the interface orientations it supports: while
/// it has the focus, follow holds that mask as its constraint on the daemon.
struct FollowConfiguration: Sendable, Equatable {
    /// The sections, as the file spells them.
    static let sections = ["Follow", "Apps"]

    /// The keys of `[Follow]`, as the file spells them.
    static let keys = [
        "Backend", "Output", "Touch", "PanelOffset", "PauseExternal", "NaturalInLaptopMode", "Suggest", "Then",
        "Exec", "TimeoutSec",
    ]

    var backend: BackendKind?
    var output: String?
    /// `Touch=` lines, one device each (a name may hold spaces); several lines add up.
    var touch: [String] = []
    var panelOffset: Int?
    var pauseExternal: Bool?
    var naturalInLaptopMode: Bool?
    /// `Suggest=`: rotation suggestions as desktop notifications (`follow --suggest`).
    var suggest: Bool?
    var then: String?
    var exec: String?
    var timeoutSeconds: Double?
    /// The `[Apps]` rules, in file order.
    var apps: [AppRule] = []

    /// Where the file is: `$XDG_CONFIG_HOME/orientd/follow.conf`, else `$HOME/.config/orientd/follow.conf`.
    static func path(in environment: [String: String]) -> String? {
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") { return base + "/orientd/follow.conf" }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.config/orientd/follow.conf"
    }

    /// The largest follow.conf read; a real one is a few hundred bytes.
    static let maximumFileSize = 1 << 20

    /// Reads the file at `path`; an absent file is an empty configuration.
    /// - Throws: the first mistake, naming the file, the line, the key and what is allowed.
    init(path: String?) throws(FollowConfigurationError) {
        guard let path else {
            self.init()
            return
        }
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.contents(ofFile: path, maximumSize: Self.maximumFileSize)
        } catch .noSuchFileOrDirectory {
            self.init()
            return
        } catch {
            throw FollowConfigurationError(message: "\(path): cannot be read: \(error)")
        }
        try self.init(parsing: String(decoding: bytes, as: UTF8.self), file: path)
    }

    /// No settings: every option at its default.
    init() {}

    /// Parses the text of a file.
    init(parsing text: String, file: String) throws(FollowConfigurationError) {
        var section: String?
        var seen: Set<String> = []
        for line in IniLexer.lines(of: text) {
            let mistake = { (reason: String) in FollowConfigurationError(message: "\(file):\(line.number): \(reason)") }
            let key: String
            let value: String
            switch line.kind {
            case .unclosedSection:
                throw mistake("'\(line.text)' is not a [Section] line")
            case .section(let name):
                guard Self.sections.contains(name) else {
                    throw mistake("unknown section [\(name)]; follow.conf has [Follow] and [Apps]")
                }
                section = name
                continue
            case .notAssignment:
                throw mistake("'\(line.text)' is not Key=Value")
            case .assignment(let name, let assigned):
                (key, value) = (name, assigned)
            }
            guard let section else { throw mistake("\(key)= comes before the [Follow] or [Apps] line") }
            if section == "Apps" {
                guard seen.insert("Apps/" + key).inserted else { throw mistake("the app \(key) is ruled twice") }
                do throws(FollowConfigurationError) {
                    apps.append(try AppRule(pattern: key, maskText: value, line: line.number))
                } catch {
                    throw mistake("\(key)=\(value): \(error.message)")
                }
                continue
            }
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

    /// The rule for an app, when one matches it: the first in file order whose pattern matches one of its names
    /// (the Wayland `app_id`, Hyprland's `class`, or X11's `WM_CLASS` class and instance).
    func rule(for app: FocusedApp) -> AppRule? {
        apps.first { rule in app.names.contains { rule.matches($0) } }
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
        case "Suggest": suggest = try flag()
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
