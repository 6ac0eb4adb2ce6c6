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
import OrientationCore
import SensorDevices

/// One key of CONFIG.md's table: its section, default, what it allows, and how its value sets
/// ``DaemonSettings``.
struct ConfigurationKey: Sendable {
    /// The section, without brackets.
    let section: String
    /// The key, case-sensitive.
    let name: String
    /// The default as it would be written in the file.
    let defaultValue: String
    /// What is allowed, for error messages.
    let allowed: String
    /// Checks a value; returns why it is not allowed, or nil.
    let check: @Sendable (String) -> String?
    /// Sets the settings from a value that passed ``check``.
    let apply: @Sendable (String, inout DaemonSettings) -> Void

    /// `Section.Key`, the key's identity across files.
    var qualifiedName: String { "\(section).\(name)" }

    /// The sections in CONFIG.md's order.
    static let sections = ["Sensor", "Classifier", "Policy", "Control", "Server", "DBus", "Log"]

    /// Every key, in CONFIG.md's order.
    static let all: [ConfigurationKey] =
        sensorKeys + classifierKeys + policyKeys + controlKeys + serverKeys + dbusKeys + logKeys

    /// The key `name` of `section`.
    static func named(_ name: String, in section: String) -> ConfigurationKey? {
        all.first { $0.section == section && $0.name == name }
    }

    private static let sensorKeys: [ConfigurationKey] = [
        ConfigurationKey(
            section: "Sensor",
            name: sensorKey(.device),
            defaultValue: SensorOptions.Setting.device.defaultText,
            allowed: "an IIO device name, iio:deviceN, or a sysfs path; empty: choose automatically",
            check: { $0.contains(where: \.isWhitespace) ? "a device name has no spaces" : nil },
            apply: { value, settings in settings.sensor.device = value.isEmpty ? nil : value }
        ),
        ConfigurationKey(
            section: "Sensor",
            name: sensorKey(.uri),
            defaultValue: SensorOptions.Setting.uri.defaultText,
            allowed: "a libiio URI such as local: or ip:HOST; empty: the local context",
            check: { value in
                guard !value.isEmpty else { return nil }
                let scheme = value.prefix { $0 != ":" }
                guard scheme.count < value.count, !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter }) else {
                    return "not a libiio URI (SCHEME:ADDRESS)"
                }
                return nil
            },
            apply: { value, settings in settings.sensor.uri = value.isEmpty ? nil : value }
        ),
        decimal(.rate, unit: "samples per second") { $1.sensor.rate = $0 },
        // At most Rate=: Configuration checks the pair once both are known.
        decimal(.idleRate, unit: "samples per second while still (at most Rate=)") { $1.sensor.idleRate = $0 },
        ConfigurationKey(
            section: "Sensor",
            name: sensorKey(.mountMatrix),
            defaultValue: SensorOptions.Setting.mountMatrix.defaultText,
            allowed: "a, b, c; d, e, f; g, h, i (nine numbers); empty: from udev or sysfs",
            check: { value in
                guard !value.isEmpty else { return nil }
                do {
                    _ = try MountMatrix(parsing: value)
                    return nil
                } catch {
                    return "\(error)"
                }
            },
            apply: { value, settings in settings.sensor.mountMatrix = try? MountMatrix(parsing: value) }
        ),
        decimal(.pollFallback, unit: "seconds") { $1.sensor.pollFallback = $0 },
    ]

    /// The `[Sensor]` key of a sensor option (``SensorOptions/Setting``, where it is written).
    private static func sensorKey(_ setting: SensorOptions.Setting) -> String {
        guard let key = setting.configurationKey else { preconditionFailure("\(setting) has no configuration key") }
        return key
    }

    /// A number key of `[Sensor]`, as ``SensorOptions/Setting`` spells it, with its range and default.
    private static func decimal(
        _ setting: SensorOptions.Setting,
        unit: String,
        apply: @escaping @Sendable (Double, inout DaemonSettings) -> Void
    ) -> ConfigurationKey {
        guard let range = setting.range else { preconditionFailure("\(setting) is not a number") }
        return decimal(
            section: "Sensor",
            name: sensorKey(setting),
            default: setting.defaultText,
            range: range,
            unit: unit,
            apply: apply
        )
    }

    private static let classifierKeys: [ConfigurationKey] = [
        integer(
            section: "Classifier",
            name: "FilterMs",
            default: "100",
            range: ClassifierConfiguration.filterMillisecondsRange,
            unit: "milliseconds"
        ) { $1.classifier.filterTime = Double($0) / 1000 },
        integer(
            section: "Classifier",
            name: "DwellMs",
            default: "150",
            range: ClassifierConfiguration.dwellMillisecondsRange,
            unit: "milliseconds"
        ) { $1.classifier.dwellTime = Double($0) / 1000 },
        integer(
            section: "Classifier",
            name: "FaceUpAngle",
            default: "70",
            range: ClassifierConfiguration.faceAngleRange,
            unit: "degrees"
        ) { $1.classifier.faceAngle = Double($0) },
    ]

    private static let policyKeys: [ConfigurationKey] = [
        choice(section: "Policy", name: "Natural", default: "landscape", NaturalOrientation.allCases.map(\.wireName)) {
            $1.classifier.natural = NaturalOrientation(wireName: $0) ?? .landscape
        },
        ConfigurationKey(
            section: "Policy",
            name: "Supported",
            defaultValue: "all",
            allowed: InterfaceOrientationMask.namedMasks.map(\.name).joined(separator: ", ")
                + ", or a space-separated list of them",
            check: { value in
                guard !value.isEmpty else { return "empty: nothing would be allowed" }
                do throws(UnknownMaskNameError) {
                    _ = try InterfaceOrientationMask(parsing: value)
                    return nil
                } catch {
                    return "unknown orientation or mask '\(error.name)'"
                }
            },
            apply: { value, settings in settings.supported = (try? InterfaceOrientationMask(parsing: value)) ?? .all }
        ),
        ConfigurationKey(
            section: "Policy",
            name: "Preferred",
            defaultValue: "",
            allowed: InterfaceOrientationMask.listingOrder.map(\.wireName).joined(separator: ", ")
                + "; empty: the natural one",
            check: { value in
                guard !value.isEmpty else { return nil }
                guard let orientation = InterfaceOrientation(wireName: value), orientation != .unknown else {
                    return "not an interface orientation"
                }
                return nil
            },
            apply: { value, settings in settings.preferred = value.isEmpty ? nil : InterfaceOrientation(wireName: value)
            }
        ),
        choice(
            section: "Policy",
            name: "AutoRotate",
            default: "always",
            DaemonSettings.AutoRotate.allCases.map(\.rawValue)
        ) {
            $1.autoRotate = DaemonSettings.AutoRotate(rawValue: $0) ?? .always
        },
        // The ranges are HingeConfiguration's: any tablet angle is above any laptop angle.
        integer(
            section: "Policy",
            name: "TabletAngle",
            default: "\(HingeConfiguration.defaultTabletAngle)",
            range: HingeConfiguration.tabletAngleRange,
            unit: "hinge degrees"
        ) { $1.hinge.tabletAngle = Double($0) },
        integer(
            section: "Policy",
            name: "LaptopAngle",
            default: "\(HingeConfiguration.defaultLaptopAngle)",
            range: HingeConfiguration.laptopAngleRange,
            unit: "hinge degrees"
        ) { $1.hinge.laptopAngle = Double($0) },
        integer(
            section: "Policy",
            name: "SuggestionSec",
            default: "\(DaemonSettings.defaultSuggestionSeconds)",
            range: DaemonSettings.suggestionSecondsRange,
            unit: "seconds a rotation suggestion stands (0: no suggestions)"
        ) { $1.suggestionSeconds = $0 },
        choice(
            section: "Policy",
            name: "VirtualTabletSwitch",
            default: DaemonSettings().virtualTabletSwitch.rawValue,
            DaemonSettings.VirtualTabletSwitchMode.allCases.map(\.rawValue)
        ) {
            $1.virtualTabletSwitch = DaemonSettings.VirtualTabletSwitchMode(rawValue: $0) ?? .auto
        },
    ]

    private static let controlKeys: [ConfigurationKey] = [
        ConfigurationKey(
            section: "Control",
            name: "Group",
            defaultValue: "orientd",
            allowed: "a group name (letters, digits, '_', '-', '.', not starting with '-'); empty: no group rule",
            check: { value in
                value.isEmpty || isAccountName(value) ? nil : "not a group name"
            },
            apply: { value, settings in settings.controlGroup = value.isEmpty ? nil : value }
        ),
        choice(section: "Control", name: "SeatUsers", default: "yes", ["yes", "no"]) { $1.seatUsers = $0 == "yes" },
    ]

    private static let serverKeys: [ConfigurationKey] = [
        ConfigurationKey(
            section: "Server",
            name: "Socket",
            defaultValue: "/run/orientd/socket",
            allowed: "an absolute path of at most 107 bytes",
            check: { value in
                guard value.hasPrefix("/") else { return "not an absolute path" }
                guard value.utf8.count <= 107 else { return "longer than a socket path can be" }
                return nil
            },
            apply: { value, settings in settings.socketPath = value }
        ),
        integer(section: "Server", name: "MaxClients", default: "64", range: 1...4096, unit: "connections") {
            $1.maxClients = $0
        },
        integer(section: "Server", name: "OutputLimitKiB", default: "256", range: 16...65536, unit: "KiB") {
            $1.outputLimit = $0 * 1024
        },
    ]

    private static let dbusKeys: [ConfigurationKey] = [
        choice(section: "DBus", name: "Compat", default: "no", ["no", "yes"]) { $1.sensorProxyCompat = $0 == "yes" },
        ConfigurationKey(
            section: "DBus",
            name: "ClaimUsers",
            defaultValue: "geoclue",
            allowed:
                "user names separated by spaces (letters, digits, '_', '-', '.', not starting with '-'); empty: none",
            check: { value in
                value.split(whereSeparator: \.isWhitespace).first { !isAccountName($0) }
                    .map { "'\($0)' is not a user name" }
            },
            apply: { value, settings in
                settings.claimUsers = value.split(whereSeparator: \.isWhitespace).map(String.init)
            }
        ),
    ]

    private static let logKeys: [ConfigurationKey] = [
        choice(section: "Log", name: "Level", default: "info", ["debug", "info", "notice", "warning", "error"]) {
            $1.logLevel = Logger.Level(rawValue: $0) ?? .info
        }
    ]

    // MARK: Kinds of values

    private static func integer(
        section: String,
        name: String,
        default defaultValue: String,
        range: ClosedRange<Int>,
        unit: String,
        apply: @escaping @Sendable (Int, inout DaemonSettings) -> Void
    ) -> ConfigurationKey {
        ConfigurationKey(
            section: section,
            name: name,
            defaultValue: defaultValue,
            allowed: "\(unit), \(range.lowerBound)–\(range.upperBound)",
            check: { value in
                guard let number = parseInteger(value) else { return "not a whole number" }
                return range.contains(number) ? nil : "out of range"
            },
            apply: { value, settings in apply(parseInteger(value) ?? 0, &settings) }
        )
    }

    private static func decimal(
        section: String,
        name: String,
        default defaultValue: String,
        range: ClosedRange<Double>,
        unit: String,
        apply: @escaping @Sendable (Double, inout DaemonSettings) -> Void
    ) -> ConfigurationKey {
        ConfigurationKey(
            section: section,
            name: name,
            defaultValue: defaultValue,
            allowed: "\(unit), \(format(range.lowerBound))–\(format(range.upperBound))",
            check: { value in
                guard let number = parseDecimal(value) else { return "not a number" }
                return range.contains(number) ? nil : "out of range"
            },
            apply: { value, settings in apply(parseDecimal(value) ?? 0, &settings) }
        )
    }

    private static func choice(
        section: String,
        name: String,
        default defaultValue: String,
        _ choices: [String],
        apply: @escaping @Sendable (String, inout DaemonSettings) -> Void
    ) -> ConfigurationKey {
        ConfigurationKey(
            section: section,
            name: name,
            defaultValue: defaultValue,
            allowed: choices.joined(separator: ", "),
            check: { choices.contains($0) ? nil : "not one of the choices" },
            apply: apply
        )
    }

    /// Whether `name` is a user or group name as `Group=` and `ClaimUsers=` take one: ASCII letters, digits, `_`,
    /// `-` and `.`, not starting with `-`, not empty.
    private static func isAccountName(_ name: some StringProtocol) -> Bool {
        !name.isEmpty && !name.hasPrefix("-")
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) }
    }

    /// Digits with an optional minus sign: no `+`, no spaces, no hex.
    static func parseInteger(_ text: String) -> Int? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// Digits with an optional minus sign and decimal point (`2`, `0.5`, `.5`): no exponent, `inf` or `nan`.
    static func parseDecimal(_ text: String) -> Double? {
        let body = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard body.contains(where: { $0.isASCII && $0.isNumber }),
            body.allSatisfy({ ($0.isASCII && $0.isNumber) || $0 == "." }),
            body.filter({ $0 == "." }).count <= 1
        else { return nil }
        return Double(text)
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
