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

extension SensorOptions {
    /// The sensor options as the configuration file (CONFIG.md `[Sensor]`) and orientd's command line spell them,
    /// with their ranges and defaults: each written once, here. Every one of them says how the accelerometer is found
    /// or read, so a reload that changes any of them replaces the sensor (``requiresNewSensor(comparedWith:)``).
    public enum Setting: CaseIterable, Sendable {
        case device, uri, rate, idleRate, mountMatrix, pollFallback, forcePolling

        /// Its key in `[Sensor]`; nil for an option of the command line only.
        public var configurationKey: String? {
            switch self {
            case .device: "Device"
            case .uri: "URI"
            case .rate: "Rate"
            case .idleRate: "IdleRate"
            case .mountMatrix: "MountMatrix"
            case .pollFallback: "PollFallbackSec"
            case .forcePolling: nil
            }
        }

        /// Its long option on orientd's command line, without the dashes; nil for a key of the configuration only.
        public var commandLineOption: String? {
            switch self {
            case .device: "device"
            case .uri: "uri"
            case .rate: "rate"
            case .idleRate: nil
            case .mountMatrix: "mount-matrix"
            case .pollFallback: "poll-fallback-sec"
            case .forcePolling: "poll"
            }
        }

        /// The values allowed, for a number.
        public var range: ClosedRange<Double>? {
            switch self {
            case .rate: 5...400
            case .idleRate: 1...400
            case .pollFallback: 0.5...10
            case .device, .uri, .mountMatrix, .forcePolling: nil
            }
        }

        /// The default as the configuration file writes it (empty: none; the daemon chooses).
        public var defaultText: String {
            let defaults = SensorOptions()
            return switch self {
            case .device: defaults.device ?? ""
            case .uri: defaults.uri ?? ""
            case .rate: Self.number(defaults.rate)
            case .idleRate: Self.number(defaults.idleRate)
            case .mountMatrix: defaults.mountMatrix.map { "\($0)" } ?? ""
            case .pollFallback: Self.number(defaults.pollFallback)
            case .forcePolling: defaults.forcePolling ? "yes" : "no"
            }
        }

        /// Why `value` is out of ``range`` (`out of range; allowed: 5–400`), or nil when it is in it.
        public func rangeProblem(_ value: Double) -> String? {
            guard let range, !range.contains(value) else { return nil }
            return "out of range; allowed: \(Self.number(range.lowerBound))–\(Self.number(range.upperBound))"
        }

        /// A number as the configuration writes it: `20`, `0.5`.
        public static func number(_ value: Double) -> String {
            value == value.rounded() && value.magnitude < 1e15 ? String(Int(value)) : String(value)
        }
    }
}
