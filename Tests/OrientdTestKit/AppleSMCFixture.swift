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

import Foundation

/// An emulated Apple System Management Controller of an Intel Mac, as the kernel's `applesmc` driver shows it: the
/// `applesmc.768` platform device with its hwmon attributes (fans, temperatures, the keyboard backlight's key count)
/// and the ambient light sensor's `light`, `(left,right)`.
package struct AppleSMCFixture: Sendable {
    /// The `light` attribute's text, without the newline.
    package var light: String
    /// Whether `light` is on the hwmon device instead (where iio-sensor-proxy's udev rule looks for it).
    package var lightOnHwmon: Bool

    /// An SMC whose light sensors read `light`.
    package init(light: String = "(0,0)", lightOnHwmon: Bool = false) {
        self.light = light
        self.lightOnHwmon = lightOnHwmon
    }

    /// The device whose `light` is read: the platform device, or its hwmon device.
    package var lightSyspath: String { lightOnHwmon ? syspath + "/hwmon/hwmon0" : syspath }

    /// `/sys/devices/platform/applesmc.768`.
    package var syspath: String { "/sys/devices/platform/applesmc.768" }

    /// The umockdev description: the platform device and its hwmon child.
    package var description: String {
        let attributes = [
            ("name", "applesmc"), ("modalias", "platform:applesmc"), ("key_count", "368"),
            ("fan1_input", "1998"), ("fan1_label", "Master"), ("fan1_min", "2000"), ("fan1_max", "6200"),
            ("temp1_input", "41000"), ("temp1_label", "TB0T"),
        ]
        var lines = [
            "P: /devices/platform/applesmc.768", "E: DRIVER=applesmc", "E: MODALIAS=platform:applesmc",
            "E: SUBSYSTEM=platform",
        ]
        let light = [("light", self.light)]
        lines += (attributes + (lightOnHwmon ? [] : light)).map { "A: \($0.0)=\($0.1)\\n" }
        lines += ["", "P: /devices/platform/applesmc.768/hwmon/hwmon0", "E: SUBSYSTEM=hwmon"]
        lines += ([("name", "applesmc")] + (lightOnHwmon ? light : [])).map { "A: \($0.0)=\($0.1)\\n" }
        return lines.joined(separator: "\n") + "\n"
    }
}
