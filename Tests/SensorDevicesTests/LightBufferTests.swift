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

/// When a light sensor is read through its buffer, and how its scans become lux.
@Suite struct LightBufferTests {
    /// acpi-als's attributes with a triggered buffer, as the kernel shows them.
    static let acpiALS: [String: String] = [
        "in_illuminance_raw": "150\n", "in_illuminance_input": "150\n", "buffer/enable": "0\n",
        "trigger/current_trigger": "\n", "scan_elements/in_illuminance_en": "0\n",
        "scan_elements/in_illuminance_index": "0\n", "scan_elements/in_illuminance_type": "le:s32/32>>0\n",
        "scan_elements/in_timestamp_en": "0\n", "scan_elements/in_timestamp_type": "le:s64/64>>0\n",
    ]

    static func find(
        _ attributes: [String: String],
        name: String = "acpi-als",
        sysname: String = "iio:device3",
        devnode: String? = "/dev/iio:device3",
        triggers: Set<String> = ["acpi-als-dev3"]
    ) -> LightBuffer? {
        LightBuffer.find(
            deviceName: name,
            sysname: sysname,
            devnode: devnode,
            exists: { attributes[$0] != nil },
            attribute: { attributes[$0] },
            triggers: triggers
        )
    }

    @Test func acpiALSWithItsTriggerIsReadThroughItsBuffer() throws {
        let buffer = try #require(Self.find(Self.acpiALS))
        #expect(buffer.element == "in_illuminance")
        #expect(buffer.trigger == "acpi-als-dev3")
        #expect(buffer.node == "/dev/iio:device3")
        #expect(buffer.format == (try ScanElementFormat(parsing: "le:s32/32>>0")))
        #expect(buffer.scanSize == 4)
        #expect(buffer.value(ofRaw: 420) == 420, "acpi-als gives lux: no scale")
    }

    @Test func aScaleAndOffsetApplyToScans() throws {
        var attributes = Self.acpiALS
        attributes["in_illuminance_scale"] = "0.5\n"
        attributes["in_illuminance_offset"] = "2\n"
        let buffer = try #require(Self.find(attributes))
        #expect(buffer.value(ofRaw: 10) == 6)
    }

    @Test func withoutAnythingTheBufferNeedsTheSensorIsPolled() {
        #expect(Self.find(Self.acpiALS, triggers: []) == nil, "no trigger")
        #expect(Self.find(Self.acpiALS, triggers: ["acpi-als-dev0"]) == nil, "another device's trigger")
        #expect(Self.find(Self.acpiALS, devnode: nil) == nil, "no device node")
        #expect(Self.find(Self.acpiALS, name: "als", triggers: ["als-dev3"]) == nil, "another driver")
        var noElement = Self.acpiALS
        noElement["scan_elements/in_illuminance_en"] = nil
        #expect(Self.find(noElement) == nil, "no scan element")
        var badType = Self.acpiALS
        badType["scan_elements/in_illuminance_type"] = "le:x32/32>>0\n"
        #expect(Self.find(badType) == nil, "a type that does not parse")
        var noBuffer = Self.acpiALS
        noBuffer["buffer/enable"] = nil
        #expect(Self.find(noBuffer) == nil, "no buffer")
    }
}
