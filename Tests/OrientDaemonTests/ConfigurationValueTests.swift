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
import Testing

@testable import OrientDaemon

/// Every key of CONFIG.md with good and bad values.
@Suite struct ConfigurationValueTests {
    static let file = "/etc/orientd/orientd.conf"

    /// `[section]` then `key=value` on line 2.
    static func parse(_ section: String, _ key: String, _ value: String) throws(ConfigurationErrors) -> Configuration {
        try Configuration(texts: [(file, "[\(section)]\n\(key)=\(value)\n")])
    }

    static let good: [(String, String, String, @Sendable (DaemonSettings) -> Bool)] = [
        ("Sensor", "Device", "iio:device1", { $0.sensor.device == "iio:device1" }),
        (
            "Sensor", "Device", "/sys/bus/iio/devices/iio:device0",
            { $0.sensor.device == "/sys/bus/iio/devices/iio:device0" }
        ),
        ("Sensor", "Device", "", { $0.sensor.device == nil }),
        ("Sensor", "URI", "ip:192.168.2.1", { $0.sensor.uri == "ip:192.168.2.1" }),
        ("Sensor", "URI", "local:", { $0.sensor.uri == "local:" }),
        ("Sensor", "URI", "", { $0.sensor.uri == nil }),
        ("Sensor", "Rate", "5", { $0.sensor.rate == 5 }),
        ("Sensor", "Rate", "400", { $0.sensor.rate == 400 }),
        ("Sensor", "Rate", "12.5", { $0.sensor.rate == 12.5 }),
        ("Sensor", "IdleRate", "1", { $0.sensor.idleRate == 1 }),
        ("Sensor", "IdleRate", "20", { $0.sensor.idleRate == 20 }),
        ("Sensor", "IdleRate", "2.5", { $0.sensor.idleRate == 2.5 }),
        (
            "Sensor", "MountMatrix", "0, 1, 0; -1, 0, 0; 0, 0, 1",
            {
                $0.sensor.mountMatrix == (try? MountMatrix(parsing: "0, 1, 0; -1, 0, 0; 0, 0, 1"))
            }
        ),
        ("Sensor", "MountMatrix", "", { $0.sensor.mountMatrix == nil }),
        ("Sensor", "PollFallbackSec", "0.5", { $0.sensor.pollFallback == 0.5 }),
        ("Sensor", "PollFallbackSec", "10", { $0.sensor.pollFallback == 10 }),
        ("Classifier", "FilterMs", "10", { $0.classifier.filterTime == 0.010 }),
        ("Classifier", "FilterMs", "1000", { $0.classifier.filterTime == 1 }),
        ("Classifier", "DwellMs", "0", { $0.classifier.dwellTime == 0 }),
        ("Classifier", "DwellMs", "2000", { $0.classifier.dwellTime == 2 }),
        ("Classifier", "FaceUpAngle", "45", { $0.classifier.faceAngle == 45 }),
        ("Classifier", "FaceUpAngle", "89", { $0.classifier.faceAngle == 89 }),
        ("Policy", "Natural", "portrait", { $0.classifier.natural == .portrait }),
        ("Policy", "Natural", "landscape", { $0.classifier.natural == .landscape }),
        ("Policy", "Supported", "landscape", { $0.supported == .landscape }),
        ("Policy", "Supported", "all-but-upside-down", { $0.supported == .allButUpsideDown }),
        ("Policy", "Supported", "portrait landscape-left", { $0.supported == [.portrait, .landscapeLeft] }),
        ("Policy", "Preferred", "landscape-right", { $0.preferred == .landscapeRight }),
        ("Policy", "Preferred", "", { $0.preferred == nil }),
        ("Policy", "AutoRotate", "always", { $0.autoRotate == .always }),
        ("Policy", "AutoRotate", "tablet-mode", { $0.autoRotate == .tabletMode }),
        ("Policy", "VirtualTabletSwitch", "auto", { $0.virtualTabletSwitch == .auto }),
        ("Policy", "VirtualTabletSwitch", "yes", { $0.virtualTabletSwitch == .yes }),
        ("Policy", "VirtualTabletSwitch", "no", { $0.virtualTabletSwitch == .no }),
        ("Policy", "TabletAngle", "181", { $0.hinge.tabletAngle == 181 }),
        ("Policy", "TabletAngle", "360", { $0.hinge.tabletAngle == 360 }),
        ("Policy", "LaptopAngle", "0", { $0.hinge.laptopAngle == 0 }),
        ("Policy", "LaptopAngle", "179", { $0.hinge.laptopAngle == 179 }),
        ("Policy", "SuggestionSec", "0", { $0.suggestionSeconds == 0 }),
        ("Policy", "SuggestionSec", "60", { $0.suggestionSeconds == 60 }),
        ("Control", "Group", "wheel", { $0.controlGroup == "wheel" }),
        ("Control", "Group", "", { $0.controlGroup == nil }),
        ("Control", "SeatUsers", "no", { $0.seatUsers == false }),
        ("Control", "SeatUsers", "yes", { $0.seatUsers == true }),
        ("Server", "Socket", "/tmp/orientd.sock", { $0.socketPath == "/tmp/orientd.sock" }),
        ("Server", "MaxClients", "1", { $0.maxClients == 1 }),
        ("Server", "MaxClients", "4096", { $0.maxClients == 4096 }),
        ("Server", "OutputLimitKiB", "16", { $0.outputLimit == 16 * 1024 }),
        ("Server", "OutputLimitKiB", "65536", { $0.outputLimit == 65536 * 1024 }),
        ("DBus", "Compat", "yes", { $0.sensorProxyCompat }),
        ("DBus", "Compat", "no", { !$0.sensorProxyCompat }),
        ("DBus", "ClaimUsers", "geoclue  nobody", { $0.claimUsers == ["geoclue", "nobody"] }),
        ("DBus", "ClaimUsers", "", { $0.claimUsers.isEmpty }),
        ("Log", "Level", "debug", { $0.logLevel == .debug }),
        ("Log", "Level", "notice", { $0.logLevel == .notice }),
        ("Log", "Level", "error", { $0.logLevel == .error }),
    ]

    @Test(arguments: good)
    func goodValue(section: String, key: String, value: String, holds: @Sendable (DaemonSettings) -> Bool) throws {
        let configuration = try Self.parse(section, key, value)
        #expect(holds(configuration.settings))
        let entry = try #require(configuration.entry(key, in: section))
        #expect(entry.value == value)
        #expect(entry.source == .file(Self.file, line: 2))
        #expect(entry.source.description == "\(Self.file):2")
    }

    /// Section, key, bad value, and a part of what the error must say is allowed.
    static let bad: [(String, String, String, String)] = [
        ("Sensor", "Device", "two words", "iio:deviceN"),
        ("Sensor", "URI", "192.168.2.1", "libiio URI"),
        ("Sensor", "Rate", "4", "5–400"),
        ("Sensor", "Rate", "401", "5–400"),
        ("Sensor", "Rate", "fast", "5–400"),
        ("Sensor", "Rate", "1e2", "5–400"),
        ("Sensor", "Rate", "", "5–400"),
        ("Sensor", "IdleRate", "0", "1–400"),
        ("Sensor", "IdleRate", "0.5", "1–400"),
        ("Sensor", "IdleRate", "slow", "1–400"),
        ("Sensor", "MountMatrix", "1, 0, 0; 0, 1, 0", "a, b, c; d, e, f; g, h, i"),
        ("Sensor", "MountMatrix", "1, 0, 0; 0, 0, 0; 0, 0, 1", "a, b, c; d, e, f; g, h, i"),
        ("Sensor", "PollFallbackSec", "0.4", "0.5–10"),
        ("Sensor", "PollFallbackSec", "11", "0.5–10"),
        ("Sensor", "PollFallbackSec", "nan", "0.5–10"),
        ("Classifier", "FilterMs", "9", "10–1000"),
        ("Classifier", "FilterMs", "1001", "10–1000"),
        ("Classifier", "FilterMs", "100.5", "10–1000"),
        ("Classifier", "DwellMs", "-1", "0–2000"),
        ("Classifier", "DwellMs", "2001", "0–2000"),
        ("Classifier", "FaceUpAngle", "44", "45–89"),
        ("Classifier", "FaceUpAngle", "90", "45–89"),
        ("Policy", "Natural", "square", "landscape, portrait"),
        ("Policy", "Natural", "Landscape", "landscape, portrait"),
        ("Policy", "Supported", "sideways", "all-but-upside-down"),
        ("Policy", "Supported", "", "all-but-upside-down"),
        ("Policy", "Preferred", "unknown", "landscape-left"),
        ("Policy", "Preferred", "landscape", "landscape-left"),
        ("Policy", "AutoRotate", "never", "always, tablet-mode"),
        ("Policy", "VirtualTabletSwitch", "on", "auto, yes, no"),
        ("Policy", "TabletAngle", "180", "181–360"),
        ("Policy", "TabletAngle", "361", "181–360"),
        ("Policy", "TabletAngle", "200.5", "181–360"),
        ("Policy", "LaptopAngle", "180", "0–179"),
        ("Policy", "LaptopAngle", "-1", "0–179"),
        ("Policy", "SuggestionSec", "61", "0–60"),
        ("Policy", "SuggestionSec", "2.5", "0–60"),
        ("Control", "Group", "-x", "a group name"),
        ("Control", "Group", "my group", "a group name"),
        ("Control", "SeatUsers", "true", "yes, no"),
        ("Control", "SeatUsers", "1", "yes, no"),
        ("Server", "Socket", "run/orientd/socket", "an absolute path"),
        ("Server", "Socket", "/" + String(repeating: "s", count: 120), "an absolute path"),
        ("Server", "MaxClients", "0", "1–4096"),
        ("Server", "MaxClients", "4097", "1–4096"),
        ("Server", "MaxClients", "+5", "1–4096"),
        ("Server", "OutputLimitKiB", "15", "16–65536"),
        ("Server", "OutputLimitKiB", "65537", "16–65536"),
        ("DBus", "Compat", "true", "no, yes"),
        ("DBus", "Compat", "Yes", "no, yes"),
        ("DBus", "Compat", "", "no, yes"),
        ("DBus", "ClaimUsers", "geoclue -x", "user names separated by spaces"),
        ("DBus", "ClaimUsers", "geoclue,nobody", "user names separated by spaces"),
        ("Log", "Level", "trace", "debug, info, notice, warning, error"),
        ("Log", "Level", "critical", "debug, info, notice, warning, error"),
    ]

    @Test(arguments: bad)
    func badValue(section: String, key: String, value: String, allowed: String) throws {
        let errors = try #require(throws: ConfigurationErrors.self) { try Self.parse(section, key, value) }
        #expect(errors.errors.count == 1)
        let error = try #require(errors.errors.first)
        guard case .badValue = error.reason else {
            Issue.record("not a bad value: \(error)")
            return
        }
        #expect(error.file == Self.file)
        #expect(error.line == 2)
        #expect(error.key == key)
        #expect(error.value == value)
        #expect(error.allowed?.contains(allowed) == true)
        let text = error.description
        #expect(text.hasPrefix("\(Self.file):2: [\(section)] \(key)=\(value): "), "\(text)")
        #expect(text.contains("; allowed: "), "\(text)")
        #expect(text.contains(allowed), "\(text)")
    }

    @Test func everyKeyHasADefaultSource() throws {
        let configuration = try Configuration(texts: [(Self.file, nil)])
        #expect(configuration.entries.count == 25)
        #expect(configuration.entries.allSatisfy { $0.source == .defaultValue })
        let settings = configuration.settings
        let defaults = DaemonSettings()
        #expect(settings.socketPath == defaults.socketPath)
        #expect(settings.sensor.rate == 20 && settings.sensor.pollFallback == 2 && settings.sensor.idleRate == 2)
        #expect(settings.classifier == ClassifierConfiguration())
        #expect(settings.supported == .all && settings.preferred == nil && settings.autoRotate == .always)
        #expect(settings.suggestionSeconds == 10)
        #expect(settings.controlGroup == "orientd" && settings.seatUsers)
        #expect(settings.maxClients == 64 && settings.outputLimit == 256 * 1024 && settings.logLevel == .info)
        #expect(!settings.sensorProxyCompat, "the D-Bus service is off by default")
        #expect(settings.claimUsers == ["geoclue"], "geoclue reads the compass without a session")
    }

    /// The hinge thresholds and the virtual switch: the default a file may write (and `check-config` shows) is
    /// CONFIG.md's and is what the daemon runs with when the key is absent.
    @Test func theHingeAndSwitchDefaultsAreWrittenOnce() throws {
        let written = ["TabletAngle": "200", "LaptopAngle": "160", "VirtualTabletSwitch": "auto"]
        var settings = DaemonSettings()
        for (name, text) in written {
            let key = try #require(ConfigurationKey.named(name, in: "Policy"))
            #expect(key.defaultValue == text)
            #expect(key.check(text) == nil)
            key.apply(text, &settings)
        }
        #expect(settings.hinge == DaemonSettings().hinge && settings.hinge == HingeConfiguration())
        #expect(settings.virtualTabletSwitch == DaemonSettings().virtualTabletSwitch)
    }

    /// `IdleRate=` is at most `Rate=`, wherever each is set: above it, the error names the line of `IdleRate=` and
    /// the range that `Rate=` allows; nothing is applied.
    @Test func anIdleRateAboveTheRateIsRefusedWithTheAllowedRange() throws {
        let errors = try #require(throws: ConfigurationErrors.self) {
            try Configuration(texts: [
                ("main.conf", "[Sensor]\nRate=10\n"), ("10-idle.conf", "# slower\n[Sensor]\nIdleRate=12\n"),
            ])
        }
        #expect(errors.errors.count == 1)
        let text = try #require(errors.errors.first).description
        #expect(
            text == "10-idle.conf:3: [Sensor] IdleRate=12: out of range: above Rate=10; "
                + "allowed: samples per second while still, 1–10 (at most Rate=)",
            "\(text)"
        )
        let defaultRate = try #require(throws: ConfigurationErrors.self) { try Self.parse("Sensor", "IdleRate", "21") }
        #expect(defaultRate.description.contains("1–20"), "\(defaultRate)")
        let equal = try Configuration(texts: [(Self.file, "[Sensor]\nRate=10\nIdleRate=10\n")])
        #expect(equal.settings.sensor.idleRate == 10 && equal.settings.sensor.rate == 10)
    }
}
