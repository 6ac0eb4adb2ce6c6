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

/// iio-sensor-proxy's udev property `IIO_SENSOR_PROXY_TYPE`: the kinds of sensor its udev rules (and users' local
/// rules) mark a device with, separated by blanks (`iio-poll-accel iio-buffer-accel`). orientd finds sensors by
/// their attributes itself; a mark is a hint beside that: a marked device is preferred among the candidates of its
/// kind, an IIO accelerometer marked for polling alone is polled, and a platform light marked `hwmon-als` is served
/// like Apple's SMC light, whatever its name. Names it does not know are ignored.
public enum SensorProxyType: String, Sendable, Hashable, CaseIterable {
    case iioPollAccel = "iio-poll-accel"
    case iioBufferAccel = "iio-buffer-accel"
    case inputAccel = "input-accel"
    case hwmonALS = "hwmon-als"
    case iioPollALS = "iio-poll-als"
    case iioPollLight = "iio-poll-light"
    case iioBufferALS = "iio-buffer-als"
    case iioBufferLight = "iio-buffer-light"
    case iioPollProximity = "iio-poll-proximity"
    case iioPollCompass = "iio-poll-compass"
    case iioBufferCompass = "iio-buffer-compass"

    /// The udev property.
    public static let property = "IIO_SENSOR_PROXY_TYPE"

    /// What a device of this type measures.
    public enum Measure: Sendable, Hashable {
        case accelerometer, light, proximity, compass
    }

    /// What a device of this type measures.
    public var measure: Measure {
        switch self {
        case .iioPollAccel, .iioBufferAccel, .inputAccel: .accelerometer
        case .hwmonALS, .iioPollALS, .iioPollLight, .iioBufferALS, .iioBufferLight: .light
        case .iioPollProximity: .proximity
        case .iioPollCompass, .iioBufferCompass: .compass
        }
    }

    /// The types a device's udev properties mark it with; empty when the property is unset or names none known.
    public static func types(in properties: [String: String]) -> Set<SensorProxyType> {
        guard let value = properties[property] else { return [] }
        return Set(value.split(whereSeparator: { $0 == " " || $0 == "\t" }).compactMap { Self(rawValue: String($0)) })
    }

    /// Whether the properties mark the device as a sensor measuring `measure`.
    public static func marks(_ properties: [String: String], as measure: Measure) -> Bool {
        types(in: properties).contains { $0.measure == measure }
    }

    /// Whether the properties mark an IIO accelerometer for polling alone (`iio-poll-accel` without
    /// `iio-buffer-accel`), as a local rule does for a driver whose buffer misbehaves: iio-sensor-proxy then polls it.
    public static func marksPollingOnly(_ properties: [String: String]) -> Bool {
        let types = types(in: properties)
        return types.contains(.iioPollAccel) && !types.contains(.iioBufferAccel)
    }
}
