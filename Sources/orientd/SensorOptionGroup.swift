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

import ArgumentParser
import OrientationCore
import SensorDevices

/// The options that say which accelerometer to use and how (CONFIG.md `[Sensor]`).
struct SensorOptionGroup: ParsableArguments {
    private typealias Setting = SensorOptions.Setting

    @Option(
        name: .customLong(Setting.uri.commandLineOption ?? "uri"),
        help: ArgumentHelp("A libiio URI instead of the local machine (e.g. ip:192.168.2.1).", valueName: "uri")
    )
    var uri: String?

    @Option(
        name: .customLong(Setting.device.commandLineOption ?? "device"),
        help: ArgumentHelp(
            "The accelerometer to use: its id (iio:device1), name, label or sysfs path.",
            valueName: "device"
        )
    )
    var device: String?

    @Option(
        name: .customLong(Setting.rate.commandLineOption ?? "rate"),
        help: ArgumentHelp(
            "Samples per second, \(Self.range(.rate)): the nearest available rate at or above it is used "
                + "(default \(Setting.rate.defaultText))."
        )
    )
    var rate: Double?

    @Option(
        name: .customLong(Setting.pollFallback.commandLineOption ?? "poll-fallback-sec"),
        help: ArgumentHelp(
            "Seconds without a scan after enabling the buffer before polling instead, \(Self.range(.pollFallback)) "
                + "(default \(Setting.pollFallback.defaultText)). While a motion gate holds back a still device's scans "
                + "(a HID hub's hysteresis, an any-motion trigger), the buffer is checked every 20 times this, and a scan "
                + "let through when no scan came (a hub: at every such check; a trigger: at every 40th)."
        )
    )
    var pollFallback: Double?

    @Option(
        name: .customLong(Setting.mountMatrix.commandLineOption ?? "mount-matrix"),
        help: ArgumentHelp("A mount matrix overriding udev and sysfs.", valueName: "a, b, c; d, e, f; g, h, i")
    )
    var mountMatrix: String?

    @Flag(
        name: .customLong(Setting.forcePolling.commandLineOption ?? "poll"),
        help: "Poll the raw attributes even when the buffer could be used."
    )
    var poll = false

    @Flag(name: .shortAndLong, help: "Log debug messages too.")
    var verbose = false

    /// `5–400`: a setting's range as the help and the errors write it.
    private static func range(_ setting: Setting) -> String {
        guard let range = setting.range else { return "" }
        return "\(Setting.number(range.lowerBound))–\(Setting.number(range.upperBound))"
    }

    func validate() throws {
        for (setting, value) in [(Setting.rate, rate), (.pollFallback, pollFallback)] {
            guard let value, let problem = setting.rangeProblem(value) else { continue }
            throw ValidationError("--\(setting.commandLineOption ?? "") \(value) is \(problem)")
        }
        if let mountMatrix {
            do {
                _ = try MountMatrix(parsing: mountMatrix)
            } catch {
                throw ValidationError("--mount-matrix: \(error)")
            }
        }
    }

    /// Sets in `options` what was given on the command line, leaving the rest (the configuration's) as it is.
    func override(_ options: inout SensorOptions) {
        if let uri { options.uri = uri }
        if let device { options.device = device }
        if let rate { options.rate = rate }
        if let pollFallback { options.pollFallback = pollFallback }
        if let matrix = mountMatrix.flatMap({ try? MountMatrix(parsing: $0) }) { options.mountMatrix = matrix }
        if poll { options.forcePolling = true }
    }

    /// The options for the sensor layer.
    var sensorOptions: SensorOptions {
        var options = SensorOptions()
        override(&options)
        return options
    }

    /// The accelerometers these options find.
    /// - Throws: ``CommandFailure`` when there is no IIO subsystem or the URI cannot be reached.
    func discover() throws -> AccelerometerDiscovery {
        let options = sensorOptions
        do {
            return try AccelerometerDiscovery.discover(
                uri: options.uri,
                device: options.device,
                mountMatrix: options.mountMatrix
            )
        } catch {
            throw CommandFailure("no accelerometer: \(error)")
        }
    }
}
