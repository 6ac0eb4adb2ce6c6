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

import OrientationCore
import Testing

@testable import OrientDaemon

/// iio-sensor-proxy's `AccelerometerOrientation` is the pose of orientd's interface orientation (ORIENTATION.md),
/// so that a desktop rotating by it applies the rotation orientd's own clients apply, lock included.
@Suite struct SensorProxyPropertiesTests {
    @Test(arguments: [
        // A laptop: the natural position is landscape; its interface orientation is landscape-right.
        (NaturalOrientation.landscape, InterfaceOrientation.landscapeRight, "normal"),
        (.landscape, .portrait, "left-up"),
        (.landscape, .landscapeLeft, "bottom-up"),
        (.landscape, .portraitUpsideDown, "right-up"),
        (.landscape, .unknown, "undefined"),
        // A phone or portrait tablet: the natural position is portrait.
        (.portrait, .portrait, "normal"),
        (.portrait, .landscapeLeft, "left-up"),
        (.portrait, .portraitUpsideDown, "bottom-up"),
        (.portrait, .landscapeRight, "right-up"),
        (.portrait, .unknown, "undefined"),
    ])
    func orientationIsThePoseOfTheInterfaceOrientation(
        natural: NaturalOrientation,
        interface: InterfaceOrientation,
        expected: String
    ) {
        #expect(SensorProxyProperties.orientation(interface: interface, natural: natural) == expected)
    }

    /// The pose a device is held in gives back that pose when nothing restricts the interface: the property is
    /// what iio-sensor-proxy reports then.
    @Test(arguments: NaturalOrientation.allCases)
    func unrestrictedTheOrientationIsThePoseHeld(natural: NaturalOrientation) throws {
        for pose in Pose.allCases {
            let interface = try #require(pose.deviceOrientation(natural: natural).requestedInterfaceOrientation)
            #expect(SensorProxyProperties.orientation(interface: interface, natural: natural) == pose.wireName)
        }
    }

    @Test func changedNamesListOnlyWhatDiffers() {
        let before = SensorProxyProperties(hasAccelerometer: true, orientation: "normal", tilt: "vertical")
        #expect(before.changedNames(from: before).isEmpty)
        var after = before
        after.orientation = "left-up"
        #expect(after.changedNames(from: before) == ["AccelerometerOrientation"])
        after.tilt = "face-up"
        after.hasAccelerometer = false
        #expect(
            after.changedNames(from: before) == ["HasAccelerometer", "AccelerometerOrientation", "AccelerometerTilt"]
        )
        #expect(SensorProxyProperties.tilt(.tiltedDown) == "tilted-down")
    }

    @Test func theOtherSensorsSignalOnTheirOwnObjectOnlyWhenAValueChanges() {
        let before = SensorProxyProperties(hasAccelerometer: true, orientation: "normal", tilt: "vertical")
        #expect(before.hasAmbientLight == false && before.lightLevelUnit == "lux" && before.compassHeading == -1)
        var after = before
        after.lightLevel = 0
        after.proximityNear = false
        #expect(after.changedNames(from: before).isEmpty, "the same values: nothing to signal")
        after.hasAmbientLight = true
        after.lightLevelUnit = "vendor"
        after.lightLevel = 12.5
        after.hasProximity = true
        after.proximityNear = true
        #expect(
            after.changedNames(from: before) == [
                "HasAmbientLight", "LightLevelUnit", "LightLevel", "HasProximity", "ProximityNear",
            ]
        )
        #expect(after.changedCompassNames(from: before).isEmpty)
        after.hasCompass = true
        after.compassHeading = 270
        #expect(after.changedCompassNames(from: before) == ["HasCompass", "CompassHeading"])
    }

    @Test(arguments: [
        ("ClaimAccelerometer", ProxySensor.accelerometer), ("ReleaseLight", .light), ("ClaimProximity", .proximity),
        ("ReleaseCompass", .compass), ("ClaimLight", .light),
    ])
    func methodsNameTheirSensor(method: String, sensor: ProxySensor) {
        #expect(ProxySensor(method: method) == sensor)
    }

    @Test(arguments: ["Claim", "Release", "ClaimGyroscope", "claimLight", "GetAll", "ReleaseLightX", ""])
    func otherMethodsNameNoSensor(method: String) {
        #expect(ProxySensor(method: method) == nil)
    }

    /// Readings go to the claimants of their sensor; the `Has…` properties to everyone.
    @Test func readingPropertiesBelongToTheirSensor() {
        let readings: [String: ProxySensor] = [
            "AccelerometerOrientation": .accelerometer, "AccelerometerTilt": .accelerometer, "LightLevel": .light,
            "LightLevelUnit": .light, "ProximityNear": .proximity, "CompassHeading": .compass,
        ]
        for (property, sensor) in readings {
            #expect(ProxySensor(readingProperty: property) == sensor, "\(property)")
        }
        for property in ["HasAccelerometer", "HasAmbientLight", "HasProximity", "HasCompass", "lightlevel", ""] {
            #expect(ProxySensor(readingProperty: property) == nil, "\(property)")
        }
    }
}
