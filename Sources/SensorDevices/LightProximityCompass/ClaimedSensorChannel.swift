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

/// Which attribute of an IIO device a light, proximity or compass sensor reads, and how a reading becomes a value: the kernel's
/// `(raw + offset) × scale` (Documentation/ABI/testing/sysfs-bus-iio), or a processed `_input` as it is.
///
/// Found from the device's attributes alone (``find(_:exists:attribute:property:)``), so that the choice is tested
/// without a device.
public struct ClaimedSensorChannel: Sendable, Hashable {
    /// What the channel measures.
    public let kind: ClaimedSensorKind
    /// The attribute read at each poll, such as `in_illuminance_raw`.
    public let attribute: String
    /// The scale applied to a raw reading (1 for a processed `_input`).
    public let scale: Double
    /// The offset added to a raw reading before the scale (0 for a processed `_input`).
    public let offset: Double
    /// The unit of a light level; nil for the other kinds.
    public let unit: LightUnit?
    /// The raw value at which a proximity sensor counts something as near; nil for the other kinds.
    public let nearLevel: Double?
    /// Seconds between two readings while claimed.
    public let interval: Double
    /// How the attribute's text is written.
    public var encoding: Encoding = .decimal
    /// The buffer read instead of polling while claimed (`acpi-als`); nil for a sensor that is polled. The attribute
    /// then gives the first reading, and the readings while the buffer cannot be read.
    public var buffer: LightBuffer?
    /// The evdev node of a proximity sensor of the input subsystem (``frontProximitySwitch(node:)``), read through its
    /// events instead of polling; nil for the other sensors.
    public var switchNode: String?

    /// How a polled attribute's text is written.
    public enum Encoding: Sendable, Hashable {
        /// A decimal number, as IIO attributes are (`2000`, `123.45`).
        case decimal
        /// Apple's SMC light, `(left,right)`: ``AppleSMCLight``.
        case appleSMCLight
    }

    /// The shortest and longest pace taken from a device's integration time, in seconds.
    public static let intervalRange = 0.1...5.0

    /// The value of one reading's text: `(raw + offset) × scale`, or the level of an Apple SMC reading; nil for text
    /// that is not a reading.
    public func value(ofText text: String) -> Double? {
        switch encoding {
        case .decimal:
            guard let raw = Self.number(text) else { return nil }
            return (raw + offset) * scale
        case .appleSMCLight:
            return (try? AppleSMCLight(parsing: text)).map { ($0.level + offset) * scale }
        }
    }

    /// The `light` attribute, `(left,right)`, of Apple's SMC (the `applesmc` platform device, or a hwmon device), or
    /// of another platform or hwmon device that udev marks `IIO_SENSOR_PROXY_TYPE=hwmon-als`: iio-sensor-proxy's level,
    /// the larger of the two / 255 × 100, a `vendor` value. Read every 0.4 s while claimed, so that a change shows
    /// within half a second, as with iio-sensor-proxy 3.9, whose tests read it every 0.5 s (its pace on a machine is
    /// 8 s); the event loop may fire the timer up to 0.05 s late.
    public static let hwmonLight = ClaimedSensorChannel(
        kind: .light,
        attribute: "light",
        scale: 1,
        offset: 0,
        unit: .vendor,
        nearLevel: nil,
        interval: 0.4,
        encoding: .appleSMCLight
    )

    /// A proximity sensor of the input subsystem: the switch `SW_FRONT_PROXIMITY` of the evdev node `node`, on (1)
    /// while something is near and off (0) otherwise. Its near level of ½ decides each reading at once: the margin
    /// (``ProximityThreshold``) never delays a 1 or a 0.
    public static func frontProximitySwitch(node: String) -> ClaimedSensorChannel {
        var channel = ClaimedSensorChannel(
            kind: .proximity,
            attribute: "SW_FRONT_PROXIMITY",
            scale: 1,
            offset: 0,
            unit: nil,
            nearLevel: 0.5,
            interval: ClaimedSensorKind.proximity.defaultInterval
        )
        channel.switchNode = node
        return channel
    }

    /// Whether an input device's switches (its `capabilities/sw`: hexadecimal words, the highest first, as the kernel
    /// writes a bit mask) include `SW_FRONT_PROXIMITY` (switch 11).
    public static func hasFrontProximity(switches: String) -> Bool {
        let words = switches.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard let lowest = words.last, let bits = UInt64(lowest, radix: 16) else { return false }
        return bits >> 11 & 1 == 1
    }

    /// The channel of `kind` on a device, or nil when it has none (or, for proximity, no near level).
    /// - Parameters:
    ///   - exists: whether the device has a sysfs attribute. The value attributes are only looked for, never read
    ///     here: reading a `_raw` attribute makes many drivers power the sensor up and measure.
    ///   - attribute: the text of one of the device's constant sysfs attributes (scale, offset, near level,
    ///     integration time), nil when it has no such attribute.
    ///   - property: the value of one of the device's udev properties, nil when unset.
    public static func find(
        _ kind: ClaimedSensorKind,
        exists: (String) -> Bool,
        attribute: (String) -> String?,
        property: (String) -> String?
    ) -> ClaimedSensorChannel? {
        switch kind {
        case .light: findLight(exists: exists, attribute: attribute)
        case .proximity: findProximity(exists: exists, attribute: attribute, property: property)
        case .compass: findCompass(exists: exists, attribute: attribute)
        }
    }

    /// A processed illuminance (`in_illuminance[N]_input`, lux), a raw one with its scale and offset (lux, or a
    /// vendor value without a scale), else a raw intensity (`in_intensity[N]_both_raw`, `…_clear_raw`, `…_raw`: a
    /// vendor value whatever its scale). The pace is the device's integration time when it tells one. Each channel
    /// may be indexed, and its scale, offset and integration time its own or shared (``IIOChannelName``).
    private static func findLight(exists: (String) -> Bool, attribute: (String) -> String?) -> ClaimedSensorChannel? {
        let number = { (name: String) in attribute(name).flatMap(Self.number) }
        for channel in IIOChannelName.forms("illuminance") {
            let interval = channel.value(of: "integration_time", number).map {
                min(max($0, intervalRange.lowerBound), intervalRange.upperBound)
            }
            if exists(channel.attribute("input")) {
                return ClaimedSensorChannel(
                    kind: .light,
                    attribute: channel.attribute("input"),
                    scale: 1,
                    offset: 0,
                    unit: .lux,
                    nearLevel: nil,
                    interval: interval ?? ClaimedSensorKind.light.defaultInterval
                )
            }
            if exists(channel.attribute("raw")) {
                let scale = channel.value(of: "scale", number)
                return ClaimedSensorChannel(
                    kind: .light,
                    attribute: channel.attribute("raw"),
                    scale: scale ?? 1,
                    offset: channel.value(of: "offset", number) ?? 0,
                    unit: scale == nil ? .vendor : .lux,
                    nearLevel: nil,
                    interval: interval ?? ClaimedSensorKind.light.defaultInterval
                )
            }
        }
        let intensities = ["both", "clear", nil].flatMap { IIOChannelName.forms("intensity", modifier: $0) }
        for channel in intensities where exists(channel.attribute("raw")) {
            return ClaimedSensorChannel(
                kind: .light,
                attribute: channel.attribute("raw"),
                scale: channel.value(of: "scale", number) ?? 1,
                offset: channel.value(of: "offset", number) ?? 0,
                unit: .vendor,
                nearLevel: nil,
                interval: ClaimedSensorKind.light.defaultInterval
            )
        }
        return nil
    }

    /// `in_proximity[N]_raw`, with the near level of udev's `PROXIMITY_NEAR_LEVEL` (set by hwdb) or the device's
    /// (`in_proximity[N]_nearlevel`, or shared: `in_proximity_nearlevel` beside `in_proximity0_raw`); a positive level
    /// is required, as iio-sensor-proxy requires it.
    private static func findProximity(
        exists: (String) -> Bool,
        attribute: (String) -> String?,
        property: (String) -> String?
    ) -> ClaimedSensorChannel? {
        for channel in IIOChannelName.forms("proximity") where exists(channel.attribute("raw")) {
            let level =
                property("PROXIMITY_NEAR_LEVEL").flatMap(number)
                ?? channel.value(of: "nearlevel", { attribute($0).flatMap(Self.number) })
            guard let level, level > 0 else { return nil }
            return ClaimedSensorChannel(
                kind: .proximity,
                attribute: channel.attribute("raw"),
                scale: 1,
                offset: 0,
                unit: nil,
                nearLevel: level,
                interval: ClaimedSensorKind.proximity.defaultInterval
            )
        }
        return nil
    }

    /// hid-sensor-magn-3d's tilt-compensated heading from magnetic north (`in_rot[N]_from_north_magnetic_tilt_comp_raw`),
    /// in degrees after its scale and offset.
    private static func findCompass(exists: (String) -> Bool, attribute: (String) -> String?) -> ClaimedSensorChannel? {
        let number = { (name: String) in attribute(name).flatMap(Self.number) }
        let forms = IIOChannelName.forms("rot", modifier: "from_north_magnetic_tilt_comp")
        guard let channel = forms.first(where: { exists($0.attribute("raw")) }) else { return nil }
        return ClaimedSensorChannel(
            kind: .compass,
            attribute: channel.attribute("raw"),
            scale: channel.value(of: "scale", number) ?? 1,
            offset: channel.value(of: "offset", number) ?? 0,
            unit: nil,
            nearLevel: nil,
            interval: ClaimedSensorKind.compass.defaultInterval
        )
    }

    /// A decimal number as sysfs writes it (`123`, `0.012207031`, `-5`), blanks and a newline around it; nil for
    /// anything else, an empty text, or a value that is not finite.
    public static func number(_ text: String) -> Double? {
        let trimmed = text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        guard trimmed.count == 1, let word = trimmed.first else { return nil }
        let isDecimal = word.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") }
        guard isDecimal, let value = Double(word), value.isFinite else { return nil }
        return value
    }
}
