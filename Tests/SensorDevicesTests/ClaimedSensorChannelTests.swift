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

import Testing

@testable import SensorDevices

/// Which attribute a light, proximity or compass device is read from, and how its readings become values.
@Suite struct ClaimedSensorChannelTests {
    /// A device with these attributes and udev properties.
    static func find(
        _ kind: ClaimedSensorKind,
        _ attributes: [String: String],
        properties: [String: String] = [:]
    ) -> ClaimedSensorChannel? {
        ClaimedSensorChannel.find(
            kind,
            exists: { attributes[$0] != nil },
            attribute: { name in
                // The value attributes are never read while looking for the channel.
                #expect(!name.hasSuffix("_raw") && !name.hasSuffix("_input"), "\(name) read")
                return attributes[name]
            },
            property: { properties[$0] }
        )
    }

    @Test func hidSensorALSIsLuxAfterItsScaleAndOffset() throws {
        // hid-sensor-als: a raw illuminance with the hub's exponent as its scale.
        let channel = try #require(
            Self.find(
                .light,
                [
                    "in_illuminance_raw": "2000\n", "in_illuminance_scale": "0.100000\n",
                    "in_illuminance_offset": "0\n",
                    "in_intensity_both_raw": "2000\n", "name": "als\n",
                ]
            )
        )
        #expect(channel.attribute == "in_illuminance_raw")
        #expect(channel.unit == .lux)
        #expect(channel.value(ofText: "2000\n") == 200)
        #expect(channel.interval == 0.8)
    }

    @Test func theOffsetIsAddedBeforeTheScale() throws {
        let channel = try #require(
            Self.find(
                .light,
                ["in_illuminance_raw": "0\n", "in_illuminance_scale": "2\n", "in_illuminance_offset": "5\n"]
            )
        )
        // (raw + offset) × scale, as the IIO ABI has it.
        #expect(channel.value(ofText: "10\n") == 30)
    }

    @Test func aProcessedInputIsLuxAsItIsAndTheIntegrationTimeSetsThePace() throws {
        let channel = try #require(
            Self.find(
                .light,
                [
                    "in_illuminance0_input": "123.45\n", "in_illuminance0_integration_time": "0.4\n",
                    "in_illuminance0_scale": "7\n",
                ]
            )
        )
        #expect(channel.attribute == "in_illuminance0_input")
        #expect(channel.unit == .lux)
        #expect(channel.value(ofText: "123.45\n") == 123.45)
        #expect(channel.interval == 0.4)
    }

    @Test func theInputIsPreferredToTheRawValue() throws {
        let channel = try #require(
            Self.find(
                .light,
                ["in_illuminance_input": "5\n", "in_illuminance_raw": "50\n", "in_illuminance_scale": "0.1\n"]
            )
        )
        #expect(channel.attribute == "in_illuminance_input")
    }

    @Test func aRawValueWithoutScaleOrARawIntensityIsNeverLux() throws {
        let raw = try #require(Self.find(.light, ["in_illuminance_raw": "77\n"]))
        #expect(raw.unit == .vendor)
        #expect(raw.value(ofText: "77") == 77)
        let intensity = try #require(Self.find(.light, ["in_intensity_clear_raw": "9\n", "in_intensity_scale": "2\n"]))
        #expect(intensity.unit == .vendor)
        #expect(intensity.attribute == "in_intensity_clear_raw")
    }

    @Test func aDeviceWithoutTheChannelIsNoSensor() {
        #expect(Self.find(.light, ["in_accel_x_raw": "0\n"]) == nil)
        #expect(Self.find(.compass, ["in_magn_x_raw": "0\n"]) == nil)
        #expect(Self.find(.proximity, ["in_illuminance_input": "1\n"]) == nil)
    }

    @Test func theNearLevelComesFromUdevElseFromTheDevice() throws {
        let udev = try #require(
            Self.find(
                .proximity,
                ["in_proximity_raw": "0\n", "in_proximity_nearlevel": "50\n"],
                properties: ["PROXIMITY_NEAR_LEVEL": "200"]
            )
        )
        #expect(udev.nearLevel == 200)
        let device = try #require(Self.find(.proximity, ["in_proximity_raw": "0\n", "in_proximity_nearlevel": "50\n"]))
        #expect(device.nearLevel == 50)
        #expect(device.interval == 0.7)
        // Without a near level nothing can say near: no sensor, as iio-sensor-proxy has it.
        #expect(Self.find(.proximity, ["in_proximity_raw": "0\n"]) == nil)
        #expect(Self.find(.proximity, ["in_proximity_raw": "0\n", "in_proximity_nearlevel": "0\n"]) == nil)
    }

    /// iio-sensor-proxy 3.9's test_iio_poll_proximity0: an indexed proximity channel whose near level is shared by
    /// type, as several drivers name them.
    @Test func anIndexedProximityChannelWithTheNearLevelSharedByType() throws {
        let channel = try #require(
            Self.find(.proximity, ["in_proximity0_raw": "256\n", "in_proximity_nearlevel": "128\n"])
        )
        #expect(channel.attribute == "in_proximity0_raw")
        #expect(channel.nearLevel == 128)
        let own = try #require(
            Self.find(
                .proximity,
                ["in_proximity1_raw": "1\n", "in_proximity1_nearlevel": "40\n", "in_proximity_nearlevel": "9\n"]
            )
        )
        #expect(own.attribute == "in_proximity1_raw")
        #expect(own.nearLevel == 40, "the channel's own attribute goes before the shared one")
    }

    /// The kernel's names of a channel's attributes: its own, then shared by type, by direction, by the device.
    @Test(arguments: [
        (["in_illuminance0_raw": "5\n", "in_illuminance0_scale": "2\n", "in_illuminance_scale": "3\n"], 10.0),
        (["in_illuminance0_raw": "5\n", "in_illuminance_scale": "3\n", "in_scale": "4\n"], 15.0),
        (["in_illuminance2_raw": "5\n", "in_scale": "4\n", "scale": "7\n"], 20.0),
        (["in_illuminance1_raw": "5\n", "scale": "7\n"], 35.0),
    ])
    func anIndexedLightTakesItsScaleFromTheNearestName(attributes: [String: String], lux: Double) throws {
        let channel = try #require(Self.find(.light, attributes))
        #expect(channel.attribute.hasPrefix("in_illuminance"))
        #expect(channel.unit == .lux)
        #expect(channel.value(ofText: "5\n") == lux)
    }

    @Test func indexedProcessedLightIntensityAndCompass() throws {
        let lux = try #require(Self.find(.light, ["in_illuminance1_input": "3\n", "integration_time": "0.2\n"]))
        #expect(lux.attribute == "in_illuminance1_input")
        #expect(lux.interval == 0.2, "an integration time shared by the whole device sets the pace")
        let intensity = try #require(Self.find(.light, ["in_intensity0_both_raw": "3\n", "in_intensity_scale": "2\n"]))
        #expect(intensity.attribute == "in_intensity0_both_raw")
        #expect(intensity.unit == .vendor)
        #expect(intensity.scale == 2)
        let compass = try #require(
            Self.find(.compass, ["in_rot0_from_north_magnetic_tilt_comp_raw": "90\n", "in_rot_scale": "0.5\n"])
        )
        #expect(compass.value(ofText: "90\n") == 45)
        // An index beyond those looked for, or a name the kernel never writes, is no channel.
        #expect(Self.find(.proximity, ["in_proximity9_raw": "1\n", "in_proximity_nearlevel": "5\n"]) == nil)
        #expect(Self.find(.light, ["in_illuminance_0_raw": "1\n"]) == nil)
    }

    /// An input device's `capabilities/sw`, as the kernel writes its bit mask: `SW_FRONT_PROXIMITY` is switch 11.
    @Test(arguments: [
        ("10e00\n", true), ("804", true), ("800", true), ("1 800\n", true), ("4", false), ("0\n", false),
        ("800 0", false), ("", false), ("xyz", false),
    ])
    func theFrontProximitySwitchAmongAnInputDevicesSwitches(switches: String, has: Bool) {
        #expect(ClaimedSensorChannel.hasFrontProximity(switches: switches) == has)
    }

    @Test func aProximitySwitchIsNearWhileOnAndFarWhileOff() {
        let channel = ClaimedSensorChannel.frontProximitySwitch(node: "/dev/input/event2")
        #expect(channel.switchNode == "/dev/input/event2")
        var threshold = ProximityThreshold(nearLevel: channel.nearLevel ?? 0)
        // Each reading decides at once, whatever came before it.
        let readings = [1.0, 0, 1, 1, 0, 0].map { threshold.update(raw: $0) }
        #expect(readings == [true, false, true, true, false, false])
        threshold.reset()
        let afresh = threshold.update(raw: 0)
        #expect(!afresh)
    }

    @Test func theCompassHeadingIsInDegreesAfterScaleAndOffset() throws {
        let channel = try #require(
            Self.find(
                .compass,
                [
                    "in_rot_from_north_magnetic_tilt_comp_raw": "900\n",
                    "in_rot_from_north_magnetic_tilt_comp_scale": "0.1\n",
                    "in_rot_from_north_magnetic_tilt_comp_offset": "0\n",
                ]
            )
        )
        #expect(channel.value(ofText: "900\n") == 90)
    }

    @Test(arguments: ["", "\n", "abc\n", "1 2\n", "nan\n", "inf\n", "0x10\n"])
    func textThatIsNotANumberIsNoReading(text: String) throws {
        #expect(ClaimedSensorChannel.number(text) == nil)
    }

    @Test(arguments: [("12\n", 12.0), (" -3.5\n", -3.5), ("0.000244\n", 0.000244), ("+7", 7)])
    func decimalsAsSysfsWritesThem(text: String, value: Double) {
        #expect(ClaimedSensorChannel.number(text) == value)
    }
}

/// Near or far with iio-sensor-proxy's margin: it follows the previous reading, so a steady reading is decided by
/// the level alone, and the margin only delays a flip by one reading.
@Suite struct ProximityThresholdTests {
    @Test func aSteadyReadingJustAboveTheLevelIsNearAtTheSecondReading() {
        var threshold = ProximityThreshold(nearLevel: 128)
        // A phone held to the ear reads 129 against a level of 128: far at first (the margin), then near for good.
        #expect(threshold.update(raw: 129) == false)
        for _ in 0..<5 { #expect(threshold.update(raw: 129) == true) }
    }

    @Test func aSteadyReadingAtOrBelowTheLevelIsFar() {
        for raw in [128.0, 127, 116, 0] {
            var threshold = ProximityThreshold(nearLevel: 128)
            for _ in 0..<5 { #expect(threshold.update(raw: raw) == false, "\(raw)") }
        }
    }

    @Test func theMarginDelaysAFlipByOneReading() {
        var threshold = ProximityThreshold(nearLevel: 100)
        #expect(threshold.update(raw: 50) == false)
        // From below the level, a reading must rise above 110 % of it to be near at once.
        #expect(threshold.update(raw: 111) == true)
        // From above the level, a reading above 90 % of it is still near once, then far.
        #expect(threshold.update(raw: 95) == true)
        #expect(threshold.update(raw: 95) == false)
        // 105 after a reading below the level: far once (within the margin), then near.
        #expect(threshold.update(raw: 105) == false)
        #expect(threshold.update(raw: 105) == true)
        // At or below 90 % of the level, far at once.
        #expect(threshold.update(raw: 90) == false)
    }

    @Test func aResetDecidesAfresh() {
        var threshold = ProximityThreshold(nearLevel: 100)
        #expect(threshold.update(raw: 500) == true)
        threshold.reset()
        #expect(threshold.isNear == nil)
        #expect(threshold.previousRaw == nil)
        #expect(threshold.update(raw: 95) == false)
        #expect(threshold.update(raw: 105) == false)
    }
}
