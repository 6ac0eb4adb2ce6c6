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
import IIOSensor
import OrientationCore

/// The options that say which accelerometer to use and how (CONFIG.md `[Sensor]`).
struct SensorOptionGroup: ParsableArguments {
    @Option(help: ArgumentHelp("A libiio URI instead of the local machine (e.g. ip:192.168.2.1).", valueName: "uri"))
    var uri: String?

    @Option(
        help: ArgumentHelp(
            "The accelerometer to use: its id (iio:device1), name, label or sysfs path.",
            valueName: "device"
        )
    )
    var device: String?

    @Option(help: "Samples per second, 5–400: the nearest available rate at or above it is used (default 20).")
    var rate: Double?

    @Option(
        name: .customLong("poll-fallback-sec"),
        help: "Seconds without a scan after enabling the buffer before polling instead, 0.5–10."
    )
    var pollFallback: Double?

    @Option(
        name: .customLong("mount-matrix"),
        help: ArgumentHelp("A mount matrix overriding udev and sysfs.", valueName: "a, b, c; d, e, f; g, h, i")
    )
    var mountMatrix: String?

    @Flag(help: "Poll the raw attributes even when the buffer could be used.")
    var poll = false

    @Flag(name: .shortAndLong, help: "Log debug messages too.")
    var verbose = false

    func validate() throws {
        if let rate, !(5...400).contains(rate) {
            throw ValidationError("--rate \(rate) is out of range; allowed: 5–400")
        }
        if let pollFallback, !(0.5...10).contains(pollFallback) {
            throw ValidationError("--poll-fallback-sec \(pollFallback) is out of range; allowed: 0.5–10")
        }
        if let mountMatrix {
            do {
                _ = try MountMatrix(parsing: mountMatrix)
            } catch {
                throw ValidationError("--mount-matrix: \(error)")
            }
        }
    }

    /// The options for the sensor layer.
    var sensorOptions: SensorOptions {
        SensorOptions(
            uri: uri,
            device: device,
            rate: rate ?? SensorOptions().rate,
            pollFallback: pollFallback ?? SensorOptions().pollFallback,
            mountMatrix: mountMatrix.flatMap { try? MountMatrix(parsing: $0) },
            forcePolling: poll
        )
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
